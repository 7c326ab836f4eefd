"""Texts that print the same are the same to the clue and name checks (issue 12, item 6): invisible
characters are left out (but the joiner inside an emoji) and look-alike letters compared by their Unicode
confusable skeleton (UTS #39). What the player typed is still what every screen shows."""

import pytest

from companion.rules import Who, RuleError
from companion.rules.skeleton import ignorable, skeleton, visible_only
from companion.rules.words import contains_word, distinct_words, same_word

from tools.driver import ApiGame, Table

ZWJ = "\u200d"
# Latin letters and the Cyrillic or Greek letters that look the same.
CYRILLIC = str.maketrans("aceopxyAOCEHKMPT", "асеорхуАОСЕНКМРТ")
GREEK_O = "\u03bf"
WORDS = [
    "OTTER",
    "CASTLE",
    "PIANO",
    "ROCKET",
    "HARBOR",
    "LANTERN",
    "MEADOW",
    "GLACIER",
    "SPARROW",
    "VELVET",
    "ANCHOR",
    "TUNNEL",
]


@pytest.mark.parametrize(
    "keyword,clue",
    [
        ("OTTER", f"ot{ZWJ}ter"),  # a zero-width joiner (the one invisible character typed text keeps)
        ("OTTER", f"{ZWJ}otter{ZWJ}"),
        ("OTTER", "ot\u034fter"),  # a combining grapheme joiner
        ("OTTER", "ott\ufe0fer"),  # a variation selector
        ("OTTER", "ot\u00adter"),  # a soft hyphen (refused in typed text, ignored in comparisons)
        ("OTTER", "otter".translate(CYRILLIC)),  # Cyrillic о and е
        ("CASTLE", "castles".translate(CYRILLIC)),  # with a plural ending
        ("ORBIT", GREEK_O + "rbit"),  # a Greek omicron
        ("ÉCOLE", "éc" + "о" + "le"),  # French, with a Cyrillic о
        ("사과", f"사{ZWJ}과를"),  # Korean, a particle after the joiner
        ("사과", "사\u3164과"),  # a Hangul filler prints as nothing
    ],
)
def test_invisible_characters_and_look_alike_letters_make_no_new_word(keyword, clue):
    assert same_word(keyword, clue)
    assert contains_word(f"a {clue} here", keyword)


@pytest.mark.parametrize(
    "a,b",
    [
        ("BURN", "bum"),
        ("COM", "corn"),
        ("OIL", "0il"),
        ("ILL", "1ll"),  # plain typing is never another word
        ("👩\u200d🚀", "👩🚀"),  # the joiner makes one emoji of two
        ("사과", "사고"),
    ],
)
def test_different_texts_stay_different(a, b):
    assert not same_word(a, b)


def test_the_skeleton_leaves_out_default_ignorables_but_the_joiner_of_an_emoji():
    assert [c for c in "a\u200b\u200c\u200d\u2060\ufeff\u034f\ufe0f\U000e0041b" if not ignorable(c)] == ["a", "b"]
    assert visible_only(f"ot{ZWJ}ter 👩{ZWJ}🚀 🏳\ufe0f{ZWJ}🌈 a{ZWJ}🚀") == f"otter 👩{ZWJ}🚀 🏳{ZWJ}🌈 a🚀"
    assert skeleton("Ann") == "Ann" and skeleton("\u0410nn") == "Ann"


def test_a_custom_list_counts_a_look_alike_word_once():
    assert distinct_words(["OTTER", "OTTER".translate(CYRILLIC), f"OT{ZWJ}TER", "CASTLE"]) == ["OTTER", "CASTLE"]


def _table() -> Table:
    return Table(custom_words="\n".join(WORDS), words=WORDS)


def test_a_clue_with_a_joiner_or_a_look_alike_inside_a_keyword_is_refused_as_that_keyword():
    table = _table()
    keyword = table.game.keywords["white"][0]
    for clue in (keyword[:2] + ZWJ + keyword[2:], keyword.lower().translate(CYRILLIC) + "s"):
        with pytest.raises(RuleError) as refused:
            table.announce("white", [clue, "zqa", "zqb"])
        assert refused.value.code == "clue_is_keyword" and refused.value.params["keyword"] == keyword


def test_a_clue_given_again_with_a_joiner_or_a_look_alike_is_a_reused_clue():
    table = _table()
    table.announce("white", ["harpoon", "cello", "zqc"])
    table.announce("black")
    table.transmission("white")
    table.transmission("black")
    for clue in (f"har{ZWJ}poon", "cello".translate(CYRILLIC)):
        with pytest.raises(RuleError) as refused:
            table.announce("white", [clue, "zqd", "zqe"])
        assert refused.value.code == "clue_reused"
    with pytest.raises(RuleError) as refused:
        table.announce("white", ["zqf", "zqf".replace("q", "q" + ZWJ), "zqg"])
    assert refused.value.code == "clue_repeated"


def test_a_team_never_seats_two_names_that_look_the_same():
    table = Table(white=("Ann", "Abe"), start=False)
    for name in (f"An{ZWJ}n", "Ann".translate(CYRILLIC), f"A{ZWJ}nn\u034f"):
        with pytest.raises(RuleError) as refused:
            table.do({"type": "join", "name": name}, Who("join", "white"))
        assert refused.value.code == "name_taken"
    table.do({"type": "join", "name": "Ann".translate(CYRILLIC)}, Who("join", "black"))  # the other team may


def test_through_the_api_look_alikes_are_refused_and_an_accepted_clue_is_shown_as_typed(client):
    game = ApiGame(client, settings={"words": "\n".join(WORDS)}, start=False)
    answer = game.post("join", game.tokens["white"], name="Ann".translate(CYRILLIC))
    assert answer.status_code == 409 and answer.get_json()["code"] == "name_taken"
    assert "Someone on this team is already called" in answer.get_json()["error"]
    game.ok(game.command(game.host, "start"))
    keyword = game.view(game.encryptor("white"))["teams"]["white"]["keywords"][0]
    answer = game.post("clues", game.encryptor("white"), clues=[keyword[:1] + ZWJ + keyword[1:].lower(), "zqa", "zqb"])
    assert answer.status_code == 400 and answer.get_json()["code"] == "clue_is_keyword"
    typed = [f"sea{ZWJ}shell", "👩\u200d🚀", "cello".translate(CYRILLIC)]
    game.announce("white", typed)
    game.announce("black")
    clues = game.view(game.host)["rounds"][0]["transmissions"]["white"]["clues"]
    assert clues == typed  # kept and shown exactly as typed


# --- letter-like forms, and spaces or dashes inside a word (issue 20, item 7) ---------------------------

# a-z in small capitals (there is none for x): what some "fancy text" sites offer.
SMALL_CAPITALS = str.maketrans("abcdefghijklmnopqrstuvwyz", "ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘꞯʀꜱᴛᴜᴠᴡʏᴢ")
NO_BREAK_SPACE, BRAILLE_BLANK = "\u00a0", "\u2800"


def spelled_apart(keyword: str) -> list[str]:
    """The keyword in small capitals, with a look-alike first letter, and with blanks or dashes inside."""
    half = len(keyword) // 2
    return [
        keyword.lower().translate(SMALL_CAPITALS),
        keyword[0].lower().translate(SMALL_CAPITALS) + keyword[1:],
        keyword[:half] + NO_BREAK_SPACE + keyword[half:],
        keyword[:half] + BRAILLE_BLANK + keyword[half:],
        " ".join(keyword),
        keyword[:half] + "-" + keyword[half:],
    ]


@pytest.mark.parametrize(
    "keyword,clue",
    [
        ("OTTER", "ᴏᴛᴛᴇʀ"),
        ("GARDEN", "ɢARDEN"),
        ("GARDEN", "ɢᴀʀᴅᴇɴ"),  # small capitals
        ("OTTER", "🅾🆃🆃🅴🆁"),  # letters in squares, as emoji keyboards offer
        ("OTTER", "ᴼᵀᵀᴱᴿ"),
        ("OTTER", "𝐨𝐭𝐭𝐞𝐫"),  # modifier and mathematical letters (NFKC)
        ("CASTLE", "ƈastle"),  # a letter with a hook, as an accented letter is the letter
        ("OTTER", f"OT{NO_BREAK_SPACE}TER"),
        ("OTTER", f"OT{BRAILLE_BLANK}TER"),
        ("OTTER", "OT\U0001d159TER"),
        ("OTTER", "O T T E R"),
        ("OTTER", "OT-TER"),
        ("OTTER", "ot–ter"),
        ("OTTER", "O.T.T.E.R"),
        ("OTTER", "ot_ter"),
        ("OTTER", "O T T E R S"),  # and its plural
        ("ICECREAM", "ice cream"),
        ("ICE CREAM", "ice-cream"),
        ("ÉCOLE", "é-co-le"),
        ("사과", "사 과를"),
    ],
)
def test_letter_like_forms_and_spaces_or_dashes_inside_a_word_make_no_new_word(keyword, clue):
    assert same_word(keyword, clue)
    assert contains_word(f"the {clue} here", keyword)


@pytest.mark.parametrize(
    "keyword,clue",
    [
        ("OTTER", "hot terrain"),
        ("OTTER", "pot terrier"),
        ("OTTER", "river animal"),
        ("GARDEN", "rose bed"),
        ("ICE CREAM", "nice creamy"),
        ("ICECREAM", "ice"),
        ("ICECREAM", "ice creamy"),
        ("CHAT", "château fort"),
        ("CHAT", "le chaton"),
        ("ÉCOLE", "salle de classe"),
        ("ÉCOLE", "l'écolier"),
        ("사과", "사과나무 아래"),
        ("바다", "파란 하늘"),
        ("나무", "나 무지개"),
    ],
)
def test_clues_that_do_not_spell_the_keyword_stay_fair(keyword, clue):
    assert not contains_word(clue, keyword)


@pytest.mark.parametrize(
    "a,b", [("🍦 cream", "cream"), ("ice cream", "ice"), ("?!", "..."), ("sea lion", "sea"), ("사과 나무", "사과")]
)
def test_symbols_count_and_spacing_joins_only_what_is_there(a, b):
    assert not same_word(a, b)


@pytest.mark.parametrize(
    "a,b",
    [
        ("ice cream", "icecream"),
        ("ice cream", "Ice-Cream"),
        ("otter", "otter!"),
        ("pomme de terre", "Pomme-de-terre"),
        ("아이스 크림", "아이스크림"),
    ],
)
def test_a_clue_spaced_or_punctuated_otherwise_is_the_same_clue(a, b):
    assert same_word(a, b)


def test_a_clue_spelling_a_keyword_in_small_capitals_or_with_blanks_or_dashes_inside_is_refused():
    words = WORDS + ["GARDEN"]
    for seed in range(4):
        table = Table(custom_words="\n".join(words), words=words, seed=seed)
        for keyword in table.game.keywords["white"]:
            for clue in spelled_apart(keyword):
                with pytest.raises(RuleError) as refused:
                    table.announce("white", ["zqa", clue, "zqb"])
                assert refused.value.code == "clue_is_keyword" and refused.value.params["keyword"] == keyword, clue


def test_two_word_french_and_korean_clues_are_still_accepted_and_a_respaced_one_is_reused():
    table = _table()
    table.announce("white", ["ice cream", "château fort", "hot terrain"])
    table.announce("black", ["crème brûlée", "빨간 사과", "pomme de terre"])
    table.transmission("white")
    table.transmission("black")
    for clue in ("ice-cream", "icecream", "ICE CREAM", "Chateau-Fort"):
        with pytest.raises(RuleError) as refused:
            table.announce("white", [clue, "zqd", "zqe"])
        assert refused.value.code == "clue_reused"
    table.announce("white", ["ice tea", "château d'eau", "hot air"])


def test_through_the_api_letter_like_forms_and_blanks_inside_a_keyword_are_refused(client):
    game = ApiGame(client, settings={"words": "\n".join(WORDS + ["GARDEN"])})
    keyword = game.view(game.encryptor("white"))["teams"]["white"]["keywords"][0]
    before = game.events()
    for clue in spelled_apart(keyword):
        answer = game.post("clues", game.encryptor("white"), clues=["zqa", "zqb", clue])
        assert answer.status_code == 400, clue
        assert answer.get_json()["code"] == "clue_is_keyword" and keyword in answer.get_json()["error"]
    assert game.events() == before
    typed = ["ice cream", "ᴀ château", "사과 나무"]
    game.announce("white", typed)
    game.announce("black")
    assert game.view(game.host)["rounds"][0]["transmissions"]["white"]["clues"] == typed
