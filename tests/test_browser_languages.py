"""Playing in French and Korean in real Chromium: the table screen and phones of 320 and 390 pixels.

The pages are driven by stable selectors; every text they should show is read from the catalogues with
Flask-Babel (`Words`), so the tests check the translation the app really ships. Each screen is looked at
as a player would: nothing wider than the screen, no button whose text is cut off, no word broken in the
middle at the end of a line (Korean wraps between words), and no English sentence left untranslated.
Layout problems are gathered and reported together at the end, so one test run shows all of them.
"""

from __future__ import annotations

import re
from pathlib import Path

import flask_babel
import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import Page, expect

from companion.messages import TASKS, refusal, side_text
from companion.rules.words import contains_word
from companion.web.locale import LANGUAGE_NAMES

from .browser import PHONE, SHOTS, TABLE, read_qr, refused, shot

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
SMALL = {"width": 320, "height": 640}
NAMES = {"fr": ["Élodie", "François", "Zoé", "Benoît"], "ko": ["민준", "서연", "지우", "하은"]}
# Clues with accents and Hangul; the first three that don't use a team's own keyword are announced.
CLUES = {
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
        "noël",
    ],
    "ko": ["바다", "하늘색", "눈사람", "무지개", "김치찌개", "봄바람", "별빛", "도서관", "떡볶이", "반딧불"],
}


class Words:
    """The catalogue's text in one language, as the app would render it."""

    def __init__(self, app, language: str):
        self.app, self.language = app, language

    def _in_language(self, produce):
        with self.app.test_request_context(), flask_babel.force_locale(self.language):
            return produce()

    def __call__(self, msgid: str, **params) -> str:
        return self._in_language(lambda: flask_babel.gettext(msgid, **params))

    def n(self, singular: str, plural: str, num: int, **params) -> str:
        return self._in_language(lambda: flask_babel.ngettext(singular, plural, num, **params))

    def task(self, key: str) -> str:
        return self._in_language(lambda: str(TASKS[key]))

    def refusal(self, code: str, **params) -> str:
        return self._in_language(lambda: refusal(code, **params))

    def side(self, key: str, team: str, **params) -> str:
        """A sentence that names a side (standard game), as the catalogue words it for that side."""
        return self._in_language(lambda: side_text(key, team, **params))

    def english_left(self) -> list[str]:
        """English phrases (two words or more) of the catalogue that this language translates differently:
        seeing one of them on a page means something was left in English."""
        if self.language == "en":
            return []
        with open(ROOT / "translations" / "messages.pot", "rb") as po:
            ids = [m.id for m in read_po(po) if m.id]
        phrases = set()
        for msgid in ids:
            if isinstance(msgid, str):
                translated = self(msgid)
                sources = [msgid]
            else:
                # Unformatted: a plural may hold placeholders besides %(num)s (split out below anyway).
                raw = lambda n, msgid=msgid: self._in_language(
                    lambda: flask_babel.get_translations().ungettext(*msgid, n)
                )
                translated = raw(1) + " " + raw(2)
                sources = list(msgid)
            for source in sources:
                for part in re.split(r"%\(\w+\)s", source):
                    phrase = part.strip(" .,:;!?()·“”\"")
                    if len(phrase.split()) >= 2 and len(phrase) >= 8 and phrase not in translated:
                        phrases.add(phrase)
        return sorted(phrases, key=len, reverse=True)

    def english_labels(self) -> set[str]:
        """Whole English messages without a placeholder (a button, a link, a heading) that this language
        translates differently: an element showing exactly one of them was left in English."""
        if self.language == "en":
            return set()
        with open(ROOT / "translations" / "messages.pot", "rb") as po:
            ids = [m.id for m in read_po(po) if isinstance(m.id, str) and m.id and "%(" not in m.id]
        return {msgid for msgid in ids if self(msgid) != msgid}


# --- looking at a screen ------------------------------------------------------------------------

CLIPPED_BUTTONS = """() => Array.from(document.querySelectorAll('button, .button, input[type=submit], summary'))
  .filter(b => b.getClientRects().length && getComputedStyle(b).visibility !== 'hidden')
  .filter(b => b.scrollWidth > b.clientWidth || b.scrollHeight > b.clientHeight + 2)
  .map(b => `“${b.innerText.trim().replace(/\\s+/g, ' ')}” (${b.scrollWidth}×${b.scrollHeight} in ${b.clientWidth}×${b.clientHeight})`)"""

# A line break between two letters with no space: a word cut in two (links are allowed to break anywhere).
BROKEN_WORDS = """() => {
  const found = [], range = document.createRange(), letter = /[\\p{L}\\p{N}]/u;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node; (node = walker.nextNode());) {
    const el = node.parentElement;
    if (!el || el.closest('.link, script, style, .qr') || !el.getClientRects().length) continue;
    if (getComputedStyle(el).hyphens === 'auto') continue;     // a hyphenated break is good typography
    range.selectNodeContents(node);
    if (new Set(Array.from(range.getClientRects(), r => Math.round(r.top))).size < 2) continue;   // one line
    const text = node.data;
    let prevTop = null, prev = null;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (!letter.test(ch)) { prevTop = null; prev = null; continue; }
      range.setStart(node, i); range.setEnd(node, i + 1);
      const rects = range.getClientRects();
      if (!rects.length) { prevTop = null; continue; }
      const top = rects[0].top;
      if (prevTop !== null && top > prevTop + 2 && letter.test(prev)) {
        const start = text.slice(0, i).search(/\\S+$/), rest = text.slice(i).match(/^\\S*/)[0];
        const where = el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ')[0] : '');
        found.push(`“${text.slice(start < 0 ? i : start, i)}|${rest}” in ${where}`);
      }
      prevTop = top; prev = ch;
    }
  }
  return found;
}"""


class Looker:
    """Screenshots every screen it is shown, and notes what a player of `language` would stumble on."""

    def __init__(self, words: Words):
        self.words = words
        self.english = words.english_left()
        self.labels = words.english_labels()
        self.problems: dict[str, list[str]] = {}  # what is wrong -> the screenshots showing it

    def __call__(self, page: Page, name: str, language: str | None = None) -> None:
        language = language or self.words.language
        expect(page.locator("html")).to_have_attribute("lang", language)
        page.evaluate("document.fonts.ready.then(() => true)")
        try:
            shot(page, name)  # fails on a page wider than the screen...
        except AssertionError as overflow:
            self.note(name, str(overflow).replace(f"{name}: ", ""))
            page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True, animations="disabled")
        for button in page.evaluate(CLIPPED_BUTTONS):
            self.note(name, f"button text cut off: {button}")
        for word in page.evaluate(BROKEN_WORDS):
            self.note(name, f"word broken across lines: {word}")
        if language == self.words.language:
            shown = page.evaluate("""() => [document.title, document.body.innerText,
                ...Array.from(document.querySelectorAll('[title], [aria-label], [placeholder]'), e =>
                   [e.title, e.getAttribute('aria-label'), e.placeholder].filter(Boolean).join(' '))].join('\\n')""")
            shown = " ".join(shown.split())
            for phrase in (p for p in self.english if p in shown):
                self.note(name, f"English left: “{phrase}”")
            texts = page.evaluate("""() => Array.from(document.querySelectorAll('body *'))
                .filter(e => e instanceof HTMLElement && e.getClientRects().length && !e.closest('script, style'))
                .map(e => e.innerText.trim().replace(/\\s+/g, ' '))""")
            for text in sorted(set(texts) & self.labels):
                self.note(name, f"English left: “{text}”")
            if language == "fr":  # French puts a (narrow) no-break space before a colon
                for text in sorted(set(re.findall(r"\S*(?:[^\W\d]|\)): \S*", shown))):
                    self.note(name, f"French colon without its space: “{text}”")

    def verdict(self) -> None:
        assert not self.problems, "\n".join(
            f"{problem}  [{', '.join(names)}]" for problem, names in self.problems.items()
        )

    def note(self, name: str, problem: str) -> None:
        self.problems.setdefault(problem, []).append(name)


# --- players ------------------------------------------------------------------------------------


class Player:
    """A phone of a given size, driven by selectors (its texts are checked against the catalogue)."""

    def __init__(self, browser, name: str, size: dict, words: Words):
        self.name, self.width, self.words = name, size["width"], words
        self.context = browser.new_context(viewport=size, is_mobile=True, has_touch=True)
        self.page = self.context.new_page()

    def join(self, url: str) -> None:
        self.page.goto(url)
        expect(self.page.locator('label[for="name"]')).to_have_text(self.words("Your name"))
        self.page.locator("#name").fill(self.name)
        button = self.page.locator("main form button.primary")
        expect(button).to_have_text(self.words("Take my seat"))
        button.click()
        expect(self.page.locator(".topbar .who")).to_contain_text(self.name)

    @property
    def task(self):
        return self.page.locator("#task-line")

    def doing(self, key: str, words: Words | None = None) -> None:
        expect(self.page.locator("#task")).to_have_attribute("data-task", key)
        expect(self.task).to_have_text((words or self.words).task(key))

    def keywords(self) -> list[str]:
        expect(self.page.locator("#keywords ol.keywords li")).to_have_count(4)
        return [w.strip() for w in self.page.locator("#keywords ol.keywords li").all_text_contents()]

    def reveal_code(self) -> list[int]:
        summary = self.page.locator("details.secret summary")
        expect(summary).to_have_text(
            self.words("Tap to show your code (hide it from your neighbours)"), use_inner_text=True
        )
        summary.click()
        return [int(d) for d in self.page.locator(".your-code .digit").all_inner_texts()]

    def write(self, clues: list[str]) -> None:
        for i, clue in enumerate(clues, start=1):
            self.page.locator(f"#clue{i}").fill(clue)

    def announce(self) -> None:
        button = self.page.locator(".clue-form button.primary")
        expect(button).to_have_text(self.words("Announce these clues"))
        button.click()

    def pick(self, code: list[int]) -> None:
        for i, digit in enumerate(code, start=1):
            self.page.locator(f'input[name="code{i}"][value="{digit}"] + span').click()

    def seal(self) -> None:
        button = self.page.locator('#task button[name="confirm"][value="1"]')
        expect(button).to_have_text(self.words("Seal our guess"))
        button.click()

    def switch_language(self, words: Words) -> None:
        """Tap the language switch: this phone speaks `words`' language from now on."""
        language, self.words = words.language, words
        self.page.locator("nav.language-switch a", has_text=LANGUAGE_NAMES[language]).click()
        expect(self.page.locator("html")).to_have_attribute("lang", language)
        expect(self.page.locator("nav.language-switch a.current")).to_have_text(LANGUAGE_NAMES[language])


def pack(language: str) -> set[str]:
    lines = (ROOT / "keywords" / f"{language}.txt").read_text(encoding="utf-8").splitlines()
    return {w.strip() for w in lines if w.strip() and not w.startswith("#")}


def clues_avoiding(keywords: list[str], pool: list[str]) -> list[str]:
    return [c for c in pool if not any(contains_word(c, k) for k in keywords)][:3]


def wrong(code: list[int]) -> list[int]:
    return [code[1], code[0], code[2]]


def new_table(browser, live_server, language: str, words: Words) -> tuple[Page, dict]:
    """The table screen (a browser in English) creates a game in `language` from the home page's form."""
    table = browser.new_context(viewport=TABLE).new_page()
    table.goto(live_server.url)
    table.select_option("#language", label=LANGUAGE_NAMES[language])
    table.locator("form.create button.primary").click()
    expect(table.locator("h1")).to_have_text(words("Scan your team's code to join"))
    expect(table.locator("html")).to_have_attribute("lang", language)
    urls = {team: read_qr(table, f'.qr[data-team="{team}"]') for team in ("white", "black")}
    for url in urls.values():
        assert url.startswith(live_server.url + "/join/")
    return table, urls


def seat_everyone(table: Page, urls: dict, phones: dict[str, list[Player]]) -> None:
    for team, members in phones.items():
        for phone in members:
            phone.join(urls[team])
            expect(table.locator(f".team-{team} .roster")).to_contain_text(phone.name)


def start(table: Page, words: Words) -> None:
    button = table.locator("#board form.start button.primary")
    expect(button).to_have_text(words("Start the game"))
    button.click()
    expect(table.locator(".round-title")).to_have_text(words("Round %(round)s of %(max)s", round=1, max=8))


def encryptor(members: list[Player]) -> Player:
    for phone in members:
        expect(phone.page.locator("#task")).to_have_attribute("data-task", re.compile("write_clues|wait_for_clues"))
    found = [p for p in members if p.page.locator("details.secret").count()]
    assert len(found) == 1
    return found[0]


# --- 1 and 2: a whole round in French, then in Korean ------------------------------------------


@pytest.mark.parametrize("language", ["fr", "ko"])
def test_round_one_in_the_games_language(browser, live_server, language):
    words = Words(live_server.server.app, language)
    look = Looker(words)
    tag = f"60-{language}"

    # The home page in the language, for a browser that asks for it.
    for size in (TABLE, SMALL):
        context = browser.new_context(viewport=size, locale=language, is_mobile=size is SMALL)
        home = context.new_page()
        home.goto(live_server.url)
        expect(home.locator("form.create button.primary")).to_have_text(words("New game"))
        expect(home.locator('label[for="language"]')).to_have_text(words("Keywords and screens in"))
        look(home, f"{tag}-home-{size['width']}")
        context.close()

    table, urls = new_table(browser, live_server, language, words)
    names = NAMES[language]
    # Join order decides the Encryptors: White's is at 320 px and Black's at 390 px, so each screen is seen at both.
    phones = {
        "white": [Player(browser, names[0], SMALL, words), Player(browser, names[1], PHONE, words)],
        "black": [Player(browser, names[2], PHONE, words), Player(browser, names[3], SMALL, words)],
    }
    phones["white"][0].page.goto(urls["white"])
    look(phones["white"][0].page, f"{tag}-join-320")
    seat_everyone(table, urls, phones)
    expect(table.locator(".team-white h3")).to_have_text(words.n("%(num)s player", "%(num)s players", 2))
    look(table, f"{tag}-table-lobby-1280")
    for phone in (phones["white"][0], phones["black"][0]):
        phone.doing("wait_for_start")
        look(phone.page, f"{tag}-lobby-{phone.width}")

    start(table, words)
    everyone = [p for members in phones.values() for p in members]
    keywords = {team: members[0].keywords() for team, members in phones.items()}
    assert set(keywords["white"]) <= pack(language) and set(keywords["black"]) <= pack(language)
    assert not set(keywords["white"]) & set(keywords["black"])
    for team, members in phones.items():
        assert members[1].keywords() == keywords[team]
    look(table, f"{tag}-table-round1-1280")

    enc = {team: encryptor(members) for team, members in phones.items()}
    decoder = {team: next(p for p in phones[team] if p is not enc[team]) for team in phones}
    assert (enc["white"].width, enc["black"].width) == (320, 390)
    codes, clues = {}, {}
    pool = list(CLUES[language])
    for team in ("white", "black"):
        decoder[team].doing("wait_for_clues")
        enc[team].doing("write_clues")
        codes[team] = enc[team].reveal_code()
        clues[team] = clues_avoiding(keywords[team], pool)
        pool = [c for c in pool if c not in clues[team]]
        for digit, label in zip(codes[team], enc[team].page.locator("label[for^=clue]").all_inner_texts(), strict=True):
            assert keywords[team][digit - 1] in label
        enc[team].write(clues[team])
        look(enc[team].page, f"{tag}-encryptor-{enc[team].width}")
        enc[team].announce()
        if team == "white":  # Black still writes: White's Encryptor holds its clues, ready to read aloud
            enc[team].doing("wait_for_clues")
            expect(enc[team].page.locator("#task .clues li")).to_have_text(clues[team])
            expect(table.locator(".stage .guess-status li").first).to_contain_text(words("clues ready"))
            look(enc[team].page, f"{tag}-encryptor-announced-320")

    # White's transmission: White decrypts, Black listens (no interception in round 1).
    expect(table.locator(".big-clues li")).to_have_text(clues["white"])
    expect(table.locator(".stage h2")).to_have_text(words.side("reads_the_clues", "white", name=enc["white"].name))
    look(table, f"{tag}-table-transmission-1280")
    enc["white"].doing("encryptor_waits")
    look(enc["white"].page, f"{tag}-encryptor-waits-320")
    for phone in phones["black"]:
        phone.doing("no_interception_yet")
    look(decoder["black"].page, f"{tag}-no-interception-320")
    decoder["white"].doing("decrypt")
    expect(decoder["white"].page.locator("#task h2")).to_have_text(words.side("clues", "white"))
    expect(decoder["white"].page.locator("#task .clues li")).to_have_text(clues["white"])
    expect(decoder["white"].page.locator("#task .digit-picker legend")).to_have_text(clues["white"])
    decoder["white"].pick(codes["white"])
    look(decoder["white"].page, f"{tag}-guessing-390")
    decoder["white"].seal()

    reveal = table.locator(".reveal")
    expect(reveal.locator("h2")).to_have_text(words.side("round_transmission", "white", round=1))
    expect(reveal.locator(".step-3")).to_contain_text(words("The code was"))
    expect(reveal.locator(".step-4")).to_have_text(words("No token"))
    look(table, f"{tag}-table-reveal-1280")
    expect(decoder["white"].page.locator("#reveal .reveal .step-4")).to_have_text(words("No token"))
    look(decoder["white"].page, f"{tag}-reveal-390")

    # Black's transmission: Black misreads its Encryptor.
    decoder["black"].doing("decrypt")
    expect(decoder["black"].page.locator("#task .clues li")).to_have_text(clues["black"])
    decoder["black"].pick(wrong(codes["black"]))
    look(decoder["black"].page, f"{tag}-guessing-320")
    decoder["black"].seal()
    expect(table.locator(".round-title")).to_have_text(words("Round %(round)s of %(max)s", round=2, max=8))
    miscommunication = words.side("miscommunication_award", "black")
    expect(reveal.locator(".step-4")).to_have_text(miscommunication)
    expect(table.locator(".team-black .token.miscommunication .token-name")).to_have_text(
        words.n("%(num)s Miscommunication", "%(num)s Miscommunications", 1)
    )
    look(table, f"{tag}-table-round2-1280")
    for phone in everyone:
        expect(phone.page.locator("#reveal .reveal .step-4")).to_have_text(miscommunication)
        expect(phone.page.locator(".topbar .round")).to_have_text(words("Round %(round)s/%(max)s", round=2, max=8))
    look(decoder["black"].page, f"{tag}-reveal-320")
    look(enc["white"].page, f"{tag}-round2-encryptor-{enc['white'].width}")  # White's sheet now has a column
    for phone in everyone:
        phone.context.close()
    table.context.close()
    look.verdict()


# --- 3: one phone chooses its own language ------------------------------------------------------


def test_a_phone_switches_its_own_language_in_a_french_game(browser, live_server):
    app = live_server.server.app
    fr, en, ko = Words(app, "fr"), Words(app, "en"), Words(app, "ko")
    look = Looker(fr)
    table, urls = new_table(browser, live_server, "fr", fr)
    names = NAMES["fr"]
    phones = {
        "white": [Player(browser, names[0], PHONE, fr), Player(browser, names[1], SMALL, fr)],
        "black": [Player(browser, names[2], SMALL, fr), Player(browser, names[3], PHONE, fr)],
    }
    seat_everyone(table, urls, phones)
    switcher = phones["white"][0]
    others = [p for members in phones.values() for p in members if p is not switcher]

    switcher.switch_language(en)
    switcher.doing("wait_for_start", en)
    for phone in others:
        phone.doing("wait_for_start")
    start(table, fr)  # the live update reaches the English phone in English, the others in French
    switcher.doing("write_clues", en)
    expect(switcher.page.locator("#keywords h2")).to_have_text(en("Your team's keywords"))
    assert len(switcher.reveal_code()) == 3
    keywords = switcher.keywords()
    assert set(keywords) <= pack("fr")  # the game's keywords stay French
    switcher.write(clues_avoiding(keywords, CLUES["fr"]))
    look(switcher.page, "60-fr-switch-en-390", language="en")
    switcher.announce()  # the button reads "Announce these clues"
    switcher.doing("wait_for_clues", en)
    for phone in others:
        expect(phone.page.locator("html")).to_have_attribute("lang", "fr")
    phones["white"][1].doing("wait_for_clues")
    look(phones["white"][1].page, "60-fr-switch-teammate-320")

    switcher.switch_language(ko)
    switcher.doing("wait_for_clues", ko)
    expect(switcher.page.locator("#status h3").first).to_have_text(ko("White"))
    look(switcher.page, "60-fr-switch-ko-390", language="ko")
    for phone in others:
        expect(phone.page.locator("html")).to_have_attribute("lang", "fr")
        expect(phone.page.locator("nav.language-switch a.current")).to_have_text("Français")
    expect(table.locator("html")).to_have_attribute("lang", "fr")
    table.reload()
    expect(table.locator(".round-title")).to_have_text(fr("Round %(round)s of %(max)s", round=1, max=8))
    expect(table.locator(".stage h2")).to_have_text(
        fr.n("The Encryptor writes the clues", "The Encryptors write their clues", 2)
    )
    for phone in [switcher, *others]:
        phone.context.close()
    table.context.close()
    look.verdict()


# --- 4: the clue check, in Korean ---------------------------------------------------------------


def test_a_keyword_with_a_particle_is_refused_in_korean(browser, live_server, page_errors):
    page_errors.allow(refused(400, "/play/[\\w-]+/clues"), "the clue is refused")
    ko = Words(live_server.server.app, "ko")
    look = Looker(ko)
    table, urls = new_table(browser, live_server, "ko", ko)
    names = NAMES["ko"]
    phones = {
        "white": [Player(browser, names[0], SMALL, ko), Player(browser, names[1], PHONE, ko)],
        "black": [Player(browser, names[2], PHONE, ko), Player(browser, names[3], SMALL, ko)],
    }
    seat_everyone(table, urls, phones)
    start(table, ko)
    enc = encryptor(phones["white"])
    keywords = enc.keywords()
    enc.reveal_code()
    # 를 follows a final vowel (을 a final consonant): take a keyword it fits, as a player would write it.
    # The app strips a particle only from a stem of two syllables or more (docs/rules.md, "Clues").
    long_enough = [k for k in keywords if len(k) >= 2]
    keyword = next((k for k in long_enough if (ord(k[-1]) - 0xAC00) % 28 == 0), long_enough[0])
    clue = keyword + ("를" if (ord(keyword[-1]) - 0xAC00) % 28 == 0 else "을")
    good = clues_avoiding(keywords, CLUES["ko"])
    enc.write([clue, good[0], good[1]])
    enc.announce()
    expected = ko.refusal("clue_is_keyword", clue=clue, keyword=keyword)
    error = enc.page.locator(".clue-form .form-error")
    expect(error).not_to_be_empty()
    said = error.inner_text()
    look(enc.page, "60-ko-clue-refused-320")

    # Nothing was announced: the clues are still to write, on the phone, the table and in the API.
    enc.doing("write_clues")
    expect(table.locator(".stage .guess-status li").first).to_contain_text(ko("writing…"))
    game_id = enc.page.locator("body").get_attribute("data-poll").rsplit("/", 1)[1]  # /play/<id>
    view = enc.context.request.get(f"{live_server.url}/api/games/{game_id}").json()
    assert view["rounds"][-1]["transmissions"]["white"]["announced"] is False

    # With another clue the same form goes through.
    enc.page.locator("#clue1").fill(good[2])
    enc.announce()
    enc.doing("wait_for_clues")
    expect(table.locator(".stage .guess-status li").first).to_contain_text(ko("clues ready"))
    for phone in [p for members in phones.values() for p in members]:
        phone.context.close()
    table.context.close()
    assert said == expected, f"the refusal is not in Korean: {said!r} (expected {expected!r})"
    look.verdict()
