"""The table screen read from across a table: at 1280×800, 1920×1080 and 1024×768 (and 1280×680, a laptop's
browser window under its tabs) everything the players look at during a round (the round, the clues being read,
both teams' tokens, both note sheets with every revealed clue) and at the end (the result and tokens beside the
final round's reveals) fits in the window without scrolling, with the sheets' text at least 18px at 1280 wide;
and Korean shows in Hangul, not in boxes.

Games are played through the JSON API with long clues in English, French and Korean: round 3 (a few clues
on the sheets), round 8 (seven and eight rounds of clues on the sheets) and the end. The codes are dealt at
random, so the sheets are also checked to leave room for the unluckiest deal (one keyword number in every
round: eight lines under it). The table screen is measured and photographed at each size
(artifacts/screenshots/80-*.png: the window as it opens, and the whole page); `-s` prints the measures.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from companion.keywords import load_pack
from companion.rules.text import MIN_WORDS
from companion.rules.words import contains_word, same_word
from tools.driver import ApiGame

from .browser import SHOTS, shot
from .test_browser_languages import BROKEN_WORDS

pytestmark = pytest.mark.browser

# A laptop, a big screen, a landscape tablet, and the laptop's browser window under its tabs and address bar.
SIZES = [
    {"width": 1280, "height": 800},
    {"width": 1920, "height": 1080},
    {"width": 1024, "height": 768},
    {"width": 1280, "height": 680},
]
TEAMS = ("white", "black")
# Four players a team, with long names: the fullest roster a standard game has.
NAMES = {
    "en": (("Alexandra", "Benjamin", "Charlotte", "Dominic"), ("Elizabeth", "Frederick", "Gabriella", "Harrison")),
    "fr": (("Élodie", "François", "Marie-Claude", "Benoît"), ("Zoé", "Jean-Baptiste", "Gaëlle", "Hélène")),
    "ko": (("민준", "서연", "지우", "하은"), ("도윤", "서윤", "시우", "하린")),
}
# Long clues, as players really give them: 24 for each team's sheet, and spares for words a keyword forbids.
CLUES = {
    "en": [
        "lighthouse",
        "thunderstorm",
        "grandmother",
        "marshmallow",
        "photosynthesis",
        "skyscraper",
        "watermelon",
        "crossword",
        "submarine",
        "chandelier",
        "butterfly",
        "kangaroo",
        "volcano",
        "orchestra",
        "wheelbarrow",
        "tournament",
        "parliament",
        "refrigerator",
        "telescope",
        "avalanche",
        "saxophone",
        "cathedral",
        "helicopter",
        "pineapple",
        "caterpillar",
        "thermometer",
        "trampoline",
        "dinosaur",
        "moustache",
        "scarecrow",
        "snowflake",
        "earthquake",
        "microscope",
        "playground",
        "strawberry",
        "lumberjack",
        "fingerprint",
        "motorcycle",
        "newspaper",
        "quicksand",
        "rainforest",
        "sunflower",
        "toothbrush",
        "waterfall",
        "windmill",
        "cheesecake",
        "honeymoon",
        "jellyfish",
        "blacksmith",
        "campfire",
        "daydream",
        "eyebrow",
        "firework",
        "goldfish",
    ],
    "fr": [
        "éléphant",
        "crème brûlée",
        "forêt noire",
        "garçon",
        "hôpital",
        "île déserte",
        "pâte à crêpes",
        "bibliothèque",
        "château fort",
        "réfrigérateur",
        "photosynthèse",
        "établissement",
        "arc-en-ciel",
        "grand-mère",
        "tremblement",
        "parapluie",
        "boulangerie",
        "chaussette",
        "escargot",
        "feu d'artifice",
        "montgolfière",
        "pamplemousse",
        "sous-marin",
        "tournesol",
        "trampoline",
        "grenouille",
        "hérisson",
        "kangourou",
        "lampadaire",
        "marionnette",
        "nénuphar",
        "orchestre",
        "papillon",
        "quincaillerie",
        "randonnée",
        "saxophone",
        "téléphérique",
        "ustensile",
        "vendange",
        "wagon-lit",
        "xylophone",
        "yaourt",
        "zèbre",
        "brouillard",
        "cathédrale",
        "dinosaure",
        "épouvantail",
        "framboise",
        "gendarmerie",
        "hélicoptère",
        "imperméable",
        "jardinière",
        "labyrinthe",
        "moustique",
    ],
    "ko": [
        "바다",
        "하늘색",
        "눈사람",
        "무지개",
        "김치찌개",
        "봄바람",
        "별빛",
        "도서관",
        "떡볶이",
        "반딧불",
        "아이스크림",
        "냉장고",
        "해바라기",
        "소나기",
        "보름달",
        "자전거",
        "놀이공원",
        "지하철역",
        "고속도로",
        "불꽃놀이",
        "운동장",
        "할머니",
        "거북선",
        "피아노",
        "우체국",
        "미끄럼틀",
        "초콜릿",
        "수박",
        "회전목마",
        "눈썰매",
        "등대지기",
        "단풍나무",
        "돌고래",
        "만두국",
        "바이올린",
        "비행기표",
        "사진기",
        "선풍기",
        "소방관",
        "숨바꼭질",
        "신호등",
        "앵무새",
        "얼음골",
        "연필깎이",
        "오징어",
        "우산꽂이",
        "은하수",
        "장난감",
        "전화기",
        "종이비행기",
        "주전자",
        "청바지",
        "칫솔",
        "태권도",
    ],
}

# Every element of `selector`, each one's box, whether it is the element seen at its own centre (nothing
# covers it, nothing clips it away), whether its text overflows it, and its font size.
BOXES = """selector => Array.from(document.querySelectorAll(selector), el => {
  const r = el.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  const seen = document.elementFromPoint(x, y);
  return {text: el.innerText.trim().replace(/\\s+/g, ' '), left: r.left, top: r.top, right: r.right,
          bottom: r.bottom, width: r.width, height: r.height, seen: !!seen && (el.contains(seen) || seen.contains(el)),
          overflows: el.scrollWidth > el.clientWidth + 1, fontSize: parseFloat(getComputedStyle(el).fontSize)};
})"""


class Regions:
    """What a player across the table must see at once, measured on the table screen."""

    def __init__(self, page: Page):
        self.page = page
        self.size = page.viewport_size
        self.fold = 0.0  # the bottom of the lowest required region
        self.sheet_font = None  # the note sheets' text size

    def boxes(self, selector: str, count: int | None = None) -> list[dict]:
        found = self.page.evaluate(BOXES, selector)
        assert found, f"nothing matches {selector}"
        if count is not None:
            assert len(found) == count, f"{len(found)} elements match {selector}, not {count}"
        return found

    def inside(self, selector: str, count: int | None = None) -> list[dict]:
        """Every element of `selector` is on the screen, uncovered, its text not cut off."""
        width, height = self.size["width"], self.size["height"]
        boxes = self.boxes(selector, count)
        for box in boxes:
            where = f"{selector} “{box['text'][:40]}” at {width}×{height}: {box}"
            assert box["width"] > 0 and box["height"] > 0, f"not shown: {where}"
            assert box["left"] >= 0 and box["top"] >= 0, f"off the screen: {where}"
            assert box["right"] <= width and box["bottom"] <= height, f"below or beside the window: {where}"
            assert box["seen"], f"covered or clipped: {where}"
            assert not box["overflows"], f"text cut off: {where}"
            self.fold = max(self.fold, box["bottom"])
        return boxes

    def sheets(self, filed: dict[str, int]) -> None:
        """Both note sheets, every revealed clue on them, and room for the unluckiest codes: the codes are
        dealt at random, and a keyword number drawn in every round gets one line a round."""
        longest, line = 0, None
        for team in TEAMS:
            self.inside(f".sheet.team-edge-{team}", 1)
            entries = self.inside(f".sheet.team-edge-{team} .column li", 3 * filed[team])
            self.sheet_font = min(box["fontSize"] for box in entries)
            line = min([box["height"] for box in entries] + ([line] if line else []))
            longest = max(
                [longest]
                + self.page.evaluate(
                    "s => Array.from(document.querySelectorAll(s), ul => ul.children.length)",
                    f".sheet.team-edge-{team} .column ul",
                )
            )
        self.fold += (max(filed.values()) - longest) * line
        assert self.fold <= self.size["height"], (
            f"with a keyword number in every round the sheets would end at {self.fold:.0f}px, below the window"
        )
        # Read across a table, from a tablet up: the clues and the column numbers.
        numbers = min(box["fontSize"] for box in self.boxes(".sheet .column h3"))
        assert min(self.sheet_font, numbers) >= 18, (
            f"sheet text of {self.sheet_font}px, column numbers of {numbers}px at {self.size['width']} wide: "
            "read across a table they need 18px"
        )

    def no_scrolling(self) -> None:
        scroll = self.page.evaluate("[scrollX, scrollY]")
        assert scroll == [0, 0], f"the page was scrolled to {scroll}"


def of_round(clues: dict, number: int) -> dict[str, list[str]]:
    """Each team's three clues of round `number`."""
    return {team: clues[team][3 * (number - 1) : 3 * number] for team in TEAMS}


def clues_for(game: ApiGame, language: str) -> dict[str, list[str]]:
    """24 clues a team, none of them a keyword of its own, and the teams' clues different."""
    pool, clues = list(CLUES[language]), {}
    for team in TEAMS:
        keywords = game.view(game.encryptor(team))["teams"][team]["keywords"]
        mine = [c for c in pool if not any(contains_word(c, k) or same_word(c, k) for k in keywords)][:24]
        assert len(mine) == 24, f"not enough clues for {team}"
        clues[team] = mine
        pool = [c for c in pool if c not in mine]
    return clues


def longest_words(language: str) -> list[str]:
    """The language pack's longest words, as many as a custom list needs: whatever the deal, the keywords on the
    screen are the longest a game can have (a random deal from the whole pack tried them one run in many)."""
    return sorted(load_pack(language), key=lambda word: (-len(word), word))[:MIN_WORDS]


def table_screen(browser, live_server, game: ApiGame) -> Page:
    page = browser.new_context(viewport=SIZES[0]).new_page()
    page.goto(game.urls["table"])
    return page


def look_at_every_size(page: Page, name: str, check) -> dict:
    """At each size: keep screenshots of the window as it opens (not scrolled) and of the whole page, then
    `check` the regions; returns the fold and the sheets' text size at each size."""
    measured = {}
    for size in SIZES:
        page.set_viewport_size(size)
        page.evaluate("document.fonts.ready.then(() => true)")
        label = f"{name}-{size['width']}x{size['height']}"
        page.screenshot(path=str(SHOTS / f"{label}-window.png"), animations="disabled")
        shot(page, label)  # the whole page, and nothing wider than the window
        regions = Regions(page)
        check(regions)
        regions.no_scrolling()
        assert not page.evaluate(BROKEN_WORDS), f"words cut in two at {size}: {page.evaluate(BROKEN_WORDS)}"
        measured[f"{size['width']}×{size['height']}"] = {"fold": round(regions.fold), "sheet font": regions.sheet_font}
    return measured


def round_in_progress(regions: Regions, clues: list[str], filed: dict[str, int]) -> None:
    """The round, the clues being read, both teams' tokens, and both sheets with `filed` rounds of clues."""
    regions.inside(".round-title", 1)
    assert [box["text"] for box in regions.inside(".big-clues li", 3)] == clues
    for team in TEAMS:
        regions.inside(f".scoreboard .team-{team} .tokens", 1)
    regions.sheets(filed)


def game_over(regions: Regions, final: dict[str, list[str]]) -> None:
    """The result (the winner, both teams' tokens) beside the final round's reveals: each transmission's
    clues, the interception, the decryption, the code and the tokens it gave."""
    regions.inside(".result .team-banner, .result > h2", 1)
    for team in TEAMS:
        regions.inside(f".scoreboard .team-{team} .tokens", 1)
        reveal = f".final-round .reveal.team-edge-{team}"
        assert [box["text"] for box in regions.inside(f"{reveal} .clues li", 3)] == final[team]
        regions.inside(f"{reveal} .step", 4)


@pytest.mark.parametrize("language", ["en", "fr", "ko"])
def test_the_table_screen_shows_a_whole_round_without_scrolling(browser, live_server, language):
    white, black = NAMES[language]
    game = ApiGame(live_server.server.app.test_client(), white=white, black=black, settings={"language": language})
    clues = clues_for(game, language)
    table = table_screen(browser, live_server, game)
    tag = f"80-{language}"
    measured = {}

    # Round 3, White's clues being read: a few clues on each sheet.
    game.round(clues=of_round(clues, 1))
    game.round(white=(True, True), clues=of_round(clues, 2))  # Black intercepts White
    game.round(clues=of_round(clues, 3), stop_before="white")
    expect(table.locator(".big-clues li")).to_have_text(clues["white"][6:9])
    measured["round 3"] = look_at_every_size(
        table,
        f"{tag}-round3",
        lambda regions: round_in_progress(regions, clues["white"][6:9], {"white": 2, "black": 2}),
    )

    # Round 8, Black's clues being read: White's sheet is full (24 clues), Black's has 21.
    game.transmission("white")
    game.transmission("black")
    for number in range(4, 8):
        game.round(clues=of_round(clues, number))
    game.round(white=(True, True), clues=of_round(clues, 8), stop_before="black")  # Black's second interception
    expect(table.locator(".big-clues li")).to_have_text(clues["black"][21:24])
    measured["round 8"] = look_at_every_size(
        table,
        f"{tag}-round8",
        lambda regions: round_in_progress(regions, clues["black"][21:24], {"white": 8, "black": 7}),
    )

    # The end of round 8: Black wins with two Interceptions.
    game.transmission("black")
    expect(table.locator(".result")).to_be_visible()
    measured["over"] = look_at_every_size(
        table, f"{tag}-over", lambda regions: game_over(regions, {team: clues[team][21:24] for team in TEAMS})
    )
    for state, sizes in measured.items():  # seen with -s
        print(
            f"{language} {state}: "
            + ", ".join(
                f"{size} fold {m['fold']}px" + (f", sheets {m['sheet font']}px" if m["sheet font"] else "")
                for size, m in sizes.items()
            )
        )
    table.context.close()


# Two different syllables drawn in the table screen's own font: tofu (a font without Hangul) draws the same box
# for both, real glyphs differ.
HANGUL = """el => {
  const font = getComputedStyle(el).font;
  const draw = text => {
    const canvas = document.createElement('canvas'); canvas.width = 160; canvas.height = 80;
    const g = canvas.getContext('2d'); g.font = font; g.fillText(text, 10, 60);
    return Array.from(g.getImageData(0, 0, 160, 80).data);
  };
  const han = draw('한'), guk = draw('국');
  return {font, ink: han.filter((v, i) => i % 4 === 3 && v > 0).length, same: han.join() === guk.join()};
}"""


def test_korean_shows_in_hangul_on_the_table_screen(browser, live_server):
    game = ApiGame(
        live_server.server.app.test_client(),
        white=NAMES["ko"][0][:2],
        black=NAMES["ko"][1][:2],
        settings={"language": "ko"},
    )
    table = table_screen(browser, live_server, game)
    expect(table.locator("html")).to_have_attribute("lang", "ko")
    title = table.locator(".round-title")
    expect(title).to_contain_text("1")
    drawn = title.evaluate(HANGUL)
    assert drawn["ink"] > 0, f"nothing drawn in {drawn['font']}"
    assert not drawn["same"], (
        f"Hangul is drawn as boxes in {drawn['font']}: install a Korean font "
        "(scripts/install-test-tools installs fonts-nanum)"
    )
    table.context.close()


def lobby_buttons(regions: Regions) -> None:
    """Start and Shuffle, in view and uncovered, and enabled: everyone is seated."""
    for name in ("Shuffle teams", "Start the game"):
        button = regions.page.get_by_role("button", name=name)
        expect(button).to_be_enabled()
        box = button.bounding_box()
        where = f"“{name}” at {regions.size['width']}×{regions.size['height']}: {box}"
        assert box["y"] >= 0 and box["y"] + box["height"] <= regions.size["height"], f"out of the window: {where}"
        seen = regions.page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).closest('button')?.innerText",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert seen == name, f"covered by {seen!r}: {where}"


def test_start_and_shuffle_are_in_view_with_eight_players_seated(browser, live_server):
    """The host looks for Start once everyone is seated: with the fullest lobby (two teams of four, long names),
    in the first lobby and in a rematch's (with its sentence at the top), at every size, without scrolling."""
    white, black = NAMES["en"]
    game = ApiGame(live_server.server.app.test_client(), white=white, black=black, start=False)
    table = table_screen(browser, live_server, game)
    expect(table.locator(".lobby .host-roster li")).to_have_count(8)
    look_at_every_size(table, "81-lobby-8-players", lobby_buttons)

    game.ok(game.command(game.host, "start"))
    game.round()
    game.round(white=(True, True))
    game.round(white=(True, True))  # Black intercepts twice: the game is over
    expect(table.locator(".result")).to_be_visible()
    table.get_by_role("button", name="Rematch: back to the lobby, same seats").click()
    expect(table.locator(".rematch-intro")).to_be_visible()
    look_at_every_size(table, "81-rematch-lobby-8-players", lobby_buttons)
    table.context.close()


@pytest.mark.parametrize("language", ["en", "fr", "ko"])
def test_the_end_of_a_tiebreak_fits_the_window(browser, live_server, language):
    """The fullest result: eight rounds without a winner, the keyword guesses judged. The winner, why, each
    team's guesses marked right or wrong, both teams' keywords and scores, the link to the summary, and the final
    round's reveals, all in view at every size (a laptop's 1280×680 window cut it by 12px in English)."""
    white, black = NAMES[language]
    settings = {"language": language, "words": "\n".join(longest_words(language))}
    game = ApiGame(live_server.server.app.test_client(), white=white, black=black, settings=settings)
    clues = clues_for(game, language)
    for number in range(1, 9):
        game.round(clues=of_round(clues, number))
    guesses = {
        "en": ["gondola", "pepper", "lantern", "meadow"],
        "fr": ["gondole", "poivron", "lanterne", "prairie"],
        "ko": ["곤돌라", "고추", "등불", "초원"],
    }[language]
    for team in TEAMS:
        game.command(game.guesser(team, team), "keyword-guesses", guesses=guesses)
    game.command(
        game.host, "verdicts", verdicts={"white": [True, False, True, False], "black": [False, True, False, False]}
    )
    table = table_screen(browser, live_server, game)
    expect(table.locator(".result .verdicts li")).to_have_count(2)

    def tiebreak_over(regions: Regions) -> None:
        game_over(regions, {team: clues[team][21:24] for team in TEAMS})
        regions.inside(".result .verdicts li", 2)
        regions.inside(".result .final-keywords .team-card", 2)
        regions.inside(".result a.button", 1)  # the summary

    look_at_every_size(table, f"82-{language}-tiebreak-over", tiebreak_over)
    table.context.close()


def test_a_spectator_on_a_wide_screen_sees_the_table_screens_layout(browser, live_server):
    """The spectators' page on a second screen: the table screen's layout once the window is wide (the whole
    round in view, the sheets in 18px text), the phone's below 721px."""
    white, black = NAMES["en"]
    game = ApiGame(live_server.server.app.test_client(), white=white, black=black)
    clues = clues_for(game, "en")
    for number in range(1, 8):
        game.round(white=(True, number == 2), clues=of_round(clues, number))  # Black intercepts White once
    game.round(white=(True, True), clues=of_round(clues, 8), stop_before="black")  # and twice: it wins
    watch = browser.new_context(viewport=SIZES[0]).new_page()
    watch.goto(game.urls["spectator"])
    expect(watch.locator(".big-clues li")).to_have_text(clues["black"][21:24])
    look_at_every_size(
        watch,
        "83-watch-round8",
        lambda regions: round_in_progress(regions, clues["black"][21:24], {"white": 8, "black": 7}),
    )
    for width in (390, 320):
        watch.set_viewport_size({"width": width, "height": 844})
        assert watch.locator(".sheets").evaluate("e => getComputedStyle(e).gridTemplateColumns.split(' ').length") == 1
        shot(watch, f"83-watch-round8-{width}")
    game.transmission("black")
    watch.set_viewport_size(SIZES[0])
    expect(watch.locator(".result")).to_be_visible()
    look_at_every_size(
        watch, "83-watch-over", lambda regions: game_over(regions, {team: clues[team][21:24] for team in TEAMS})
    )
    watch.context.close()
