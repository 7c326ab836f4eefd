"""Sentences that name a side read right in every language and mode: no side's name pasted into the middle
of a sentence (« the next The team player », « Rejoindre L'Intercepteur »), French says « l'équipe blanche »,
counts take their plural form, and the Korean wording of issue 10."""

import html
import re

import pytest

from companion.messages import REASONS, SIDE_SENTENCES, reason_text, refusal, side_text
from tools.driver import ApiGame, wrong

from .api import browser, table_path


INLINE = re.compile(r"</?(?:a|b|em|small|span|strong)\b[^>]*>")


def text_of(page) -> str:
    """What a page shows, one line per block (heading, paragraph, button...), spaces folded in each."""
    source = page.get_data(as_text=True) if hasattr(page, "get_data") else page
    source = re.sub(r"<(script|style)\b.*?</\1>", "\n", source, flags=re.S)
    source = re.sub(r"<[^>]*>", "\n", INLINE.sub(" ", source))
    lines = (" ".join(line.split()) for line in html.unescape(source).splitlines())
    return "\n".join(line for line in lines if line)


# A side's own name where it can only have been pasted in: after a lower-case word, a comma or a colon (a
# label "Ann · The team" is not a sentence).
PASTED = {
    "en": re.compile(r"[a-z,:;] (The team|The Interceptor)\b"),
    "fr": re.compile(
        r"[a-zé,:;] (L’équipe|L’Intercepteur)\b|\b(Blanc|Noir) (a|gagne|intercepte|décrypte)\b"
        r"|\b(de|vers|pour|Rejoindre) (Blanc|Noir)\b"
    ),
}


def assert_nothing_pasted(language: str, text: str):
    found = PASTED[language].search(text)
    assert found is None, (
        f"{language}: a side's name pasted into a sentence: …{text[max(found.start() - 60, 0) : found.end() + 40]}…"
    )


def three_player(client, language, start=True, black=("Ivy",)) -> ApiGame:
    return ApiGame(
        client, settings={"mode": "three_player", "language": language}, white=("Ann", "Abe"), black=black, start=start
    )


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_three_player_lobby_and_join_pages_word_each_side_in_its_sentences(app, client, language):
    game = three_player(client, language, start=False, black=())
    table = text_of(client.get(table_path(client, game.tokens['host'])))
    join_team, join_interceptor = (text_of(client.get(f"/join/{game.tokens[team]}")) for team in ("white", "black"))
    for text in (table, join_team, join_interceptor):
        assert_nothing_pasted(language, text)
    words = {
        "en": (
            "Make them the Interceptor",
            "Already in the team: Ann, Abe.",
            "Join as the Interceptor",
            "Nobody is the Interceptor yet.",
        ),
        "fr": (
            "En faire l’Intercepteur",
            "Déjà dans l’équipe : Ann, Abe.",
            "Jouer l’Intercepteur",
            "Personne n’est encore Intercepteur.",
        ),
    }[language]
    assert words[0] in table and words[1] in join_team and words[2] in join_interceptor and words[3] in join_interceptor


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_three_player_round_and_its_corrections_word_each_side(app, client, language):
    game = three_player(client, language)
    host = table_path(client, game.tokens['host'])
    skip = text_of(client.get(host))  # before the clues: the host may skip the Encryptor
    game.announce("white")
    team_clues = text_of(browser(app, game.id, game.teammate("white")).get(f"/play/{game.id}"))
    game.guess("white", "white", game.code("white"))  # round 1 is revealed: it may be corrected
    correct = text_of(client.get(host))
    game.announce("white")
    game.guess("white", "white", game.code("white"))
    take_back = text_of(client.get(host))  # round 2: the team's sealed guess can be taken back
    for text in (skip, team_clues, correct, take_back):
        assert_nothing_pasted(language, text)
    expected = {
        "en": (
            "stepped away: the team's other player takes the round",
            "The team's clues",
            "Correct the last reveal (round 1, the team's code",
            "Take back the team's sealed guess on its own code",
        ),
        "fr": (
            "s’absente : l’autre joueur de l’équipe prend le relais",
            "Indices de l’équipe",
            "Corriger le dernier résultat (manche 1, code",
            "Annuler la réponse validée de l’équipe sur son propre code",
        ),
    }[language]
    assert expected[0] in skip and expected[1] in team_clues and expected[2] in correct
    assert expected[3] in take_back


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_whole_three_player_game_and_its_summary_word_each_side(app, client, language):
    game = three_player(client, language)
    for round_number in range(1, 6):
        game.announce("white")
        code = game.code("white")
        if round_number > 1:
            answer = game.post("guess", game.seats["Ivy"], code=wrong(code), confirm=True)
            assert answer.status_code == 200, answer.get_json()
        game.guess("white", "white", code)
    assert game.view(game.tokens["host"])["phase"] == "over"
    pages = [
        text_of(client.get(url))
        for url in (table_path(client, game.tokens['host']), f"{table_path(client, game.tokens['host'])}/summary")
    ]
    for text in pages:
        assert_nothing_pasted(language, text)
    wins = {"en": "The team wins!", "fr": "L’équipe gagne !"}[language]
    sheet = {"en": "The team's transmissions", "fr": "Transmissions de l’équipe"}[language]
    assert wins in pages[0] and wins in pages[1] and sheet in pages[0]


def tied_after_eight_rounds(client, language) -> ApiGame:
    """A standard game in which nobody earns a token for eight rounds: the keyword tiebreak, guesses sealed."""
    game = ApiGame(client, settings={"language": language})
    for round_number in range(1, 9):
        game.announce("white")
        game.announce("black")
        for team, other in (("white", "black"), ("black", "white")):
            code = game.code(team)
            if round_number > 1:
                game.guess(other, team, wrong(code))
            game.guess(team, team, code)
    for name in ("Ann", "Bea"):
        answer = game.post("keyword-guesses", game.seats[name], guesses=["pomme", "", "", ""])
        assert answer.status_code == 200, answer.get_json()
    return game


def test_the_french_tiebreak_speaks_of_l_equipe_blanche_and_quotes_with_guillemets(app, client):
    game = tied_after_eight_rounds(client, "fr")
    judging = text_of(client.get(table_path(client, game.tokens['host'])))
    assert_nothing_pasted("fr", judging)
    assert "L’équipe blanche devine les mots-clés de l’équipe noire" in judging
    assert "1. « pomme » →" in judging and "“" not in judging
    assert (
        game.post(
            "verdicts", game.tokens["host"], verdicts={"white": [True, False, False, False], "black": [False] * 4}
        ).status_code
        == 200
    )
    over = text_of(client.get(table_path(client, game.tokens['host'])))
    assert_nothing_pasted("fr", over)
    assert "L’équipe blanche gagne !" in over
    assert "L’équipe blanche a trouvé 1 des 4 mots-clés de l’équipe noire" in over
    assert "Départage : l’équipe blanche a trouvé plus de mots-clés de l’équipe noire." in over


@pytest.mark.parametrize("mode,sides", [("standard", ("white", "black")), ("three_player", ("team", "interceptor"))])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_no_side_sentence_pastes_a_name_in_either_mode(app, language, mode, sides):
    """Every side's sentence of the table, as the catalogue words it (the pages above render a part)."""
    from flask import g

    team_of = {"white": "white", "black": "black", "team": "white", "interceptor": "black"}
    params = dict(
        name="Ann", next="Abe", names="Ann", round=2, code="1-2-3", decryption="1-2-3", number=1, num=1, time="21:04"
    )
    with app.test_request_context(f"/?lang={language}"):
        from flask import session

        session["language"] = language
        g.mode = mode
        said = [
            side_text(key, team_of[side], **params)
            for key, variants in SIDE_SENTENCES.items()
            for side in sides
            if side in variants
        ]
        said += (
            [
                reason_text({"reason": reason, "winners": [team]})
                for reason, worded in REASONS.items()
                if isinstance(worded, dict)
                for team in ("white", "black")
            ]
            if mode == "standard"
            else []
        )
        said += (
            [
                refusal(code, team=team, min=2, max=4, white=3, black=1)
                for code in ("team_size", "teams_uneven")
                for team in ("white", "black")
            ]
            if mode == "standard"
            else []
        )
    assert len(said) >= 20
    for sentence in said:
        assert_nothing_pasted(language, sentence)
        assert "%(" not in sentence


@pytest.mark.parametrize(
    "language,one",
    [
        ("en", "Your list has 1 different word;"),
        ("fr", "Votre liste compte 1 mot différent\u00a0;"),  # a no-break space before « ; »
        ("ko", "목록에 서로 다른 낱말이 1개 있어요."),
    ],
)
def test_a_count_of_one_takes_the_singular(client, language, one):
    answer = client.post(
        "/api/games", json={"language": language, "words": "moon\n" * 20}, headers={"Accept-Language": language}
    )
    assert answer.status_code == 400 and one in answer.get_json()["error"]


def test_the_korean_pages_use_the_wording_of_issue_10(app, client):
    game = three_player(client, "ko", start=False, black=())
    join_interceptor = text_of(client.get(f"/join/{game.tokens['black']}"))
    assert "가로채는 사람으로 참가하기" in join_interceptor
    table = text_of(client.get(table_path(client, game.tokens['host'])))
    assert "이 주소로 접속하세요:" in table
    seated = browser(app, game.id, game.seats["Ann"])
    lobby = text_of(seated.get(f"/play/{game.id}"))
    assert "자동으로 새로고침돼요" in lobby and "알아서 새로 고쳐져요" not in lobby
    assert game.post("join", game.tokens["black"], name="Ivy").status_code == 200
    assert game.post("start", game.tokens["host"]).status_code == 200
    game.announce("white")
    game.guess("white", "white", game.code("white"))
    sheet = seated.get(f"/play/{game.id}").get_data(as_text=True)
    assert "<th>라운드</th>" in sheet and "<th>회</th>" not in sheet


@pytest.mark.parametrize(
    "language,sentences",
    [
        (
            "en",
            [
                "2 to 4 players each",
                "“(mime: swimming)”",
                "A digit of your code, such as “3”.",
                "a digit of this round's code;",
                "An option of this app: the keyword swap",
            ],
        ),
        (
            "fr",
            [
                "de 2 à 4 joueurs chacune",
                "« (mime : nager) »",
                "Un chiffre de votre code, par exemple « 3 ».",
                "un chiffre du code de la manche ;",
                "Une option de cette application : l’échange de mot-clé",
                "Manche 1",
            ],
        ),
        (
            "ko",
            [
                "팀마다 2~4명",
                "“(마임: 수영)”",
                "“3”처럼 우리 암호의 숫자",
                "이번 라운드 암호의 숫자",
                "이 앱의 선택 규칙: 비밀 낱말 바꾸기",
                "조사나 ‘들’이 붙었을 뿐 같은 낱말",
            ],
        ),
    ],
)
def test_the_rules_page_states_the_set_up_the_clue_rules_the_app_enforces_and_its_own_option(
    client, language, sentences
):
    assert client.get(f"/rules?lang={language}").status_code == 303
    page = text_of(client.get("/rules"))
    for sentence in sentences:
        assert sentence in page, sentence
    assert "bare number" not in page and "La manche 1" not in page and "대소문자" not in page


@pytest.mark.parametrize(
    "language,waiting",
    [
        ("en", "once the team has its two players and the Interceptor"),
        ("fr", "l’équipe a ses deux joueurs et que l’Intercepteur"),
        ("ko", "전송자 팀 2명과 가로채는 사람이 모두 들어오면"),
    ],
)
def test_a_seated_phone_in_a_three_player_lobby_waits_for_the_three_player_seats(app, client, language, waiting):
    game = three_player(client, language, start=False, black=())
    lobby = text_of(browser(app, game.id, game.seats["Ann"]).get(f"/play/{game.id}"))
    assert waiting in lobby and "2 to 4" not in lobby and "2~4" not in lobby


AWARD = re.compile(r'<span class="award (\w+)">([^<]*)</span>')


def awards_shown(client, game) -> list[tuple[str, str]]:
    """The tokens the last reveal gave (the last round's, once over), as the table screen words them: (kind,
    sentence)."""
    page = client.get(table_path(client, game.tokens['host'])).get_data(as_text=True)
    tokens = re.search(r'<li class="step step-4">(.*?)</li>', page, re.S).group(1)
    return [(kind, html.unescape(text)) for kind, text in AWARD.findall(tokens)]


def test_each_token_is_worded_for_the_side_that_takes_it(app, client):
    """The reveal words the view's `awards` (who takes which token), in the rulebook's order."""
    game = ApiGame(client)
    for team in ("white", "black"):
        game.announce(team)
    game.guess("white", "white", game.code("white"))
    assert awards_shown(client, game) == [("none", "No token")]
    game.guess("black", "black", wrong(game.code("black")))
    assert awards_shown(client, game) == [("miscommunication", "+1 Miscommunication for Black")]
    for team in ("white", "black"):
        game.announce(team)
    code = game.code("white")  # round 2: Black intercepts White, White misreads its own code
    game.guess("black", "white", code)
    game.guess("white", "white", wrong(code))
    assert awards_shown(client, game) == [
        ("interception", "+1 Interception for Black"),
        ("miscommunication", "+1 Miscommunication for White"),
    ]

    three = three_player(client, "en")
    three.announce("white")
    three.guess("white", "white", three.code("white"))
    three.announce("white")
    code = three.code("white")  # round 2: the Interceptor intercepts, the team misreads
    assert three.post("guess", three.seats["Ivy"], code=code, confirm=True).status_code == 200
    three.guess("white", "white", wrong(code))
    assert awards_shown(client, three) == [
        ("interception", "+1 token for the Interceptor: intercepted"),
        ("interception", "+1 token for the Interceptor: the team misread its code"),
    ]
