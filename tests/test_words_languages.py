"""Clue checks in each language: French accents and plurals, decomposed input, Korean text and particles."""

import unicodedata

import pytest

from companion.rules import RuleError
from companion.rules.words import contains_word, same_word

from tools.driver import Table

NFD = lambda text: unicodedata.normalize("NFD", text)


@pytest.mark.parametrize(
    "keyword,clue",
    [
        ("ÉCOLE", "ecole"),
        ("école", "ÉCOLES"),
        ("CHÂTEAU", "chateaux"),
        ("CHEVAL", "chevaux"),
        ("JOURNAL", "Journaux"),
        ("NOËL", NFD("noël")),
        ("CAFÉ", "cafe\u0301"),
        ("ŒUF", "œufs"),
        ("ｐｉａｎｏ", "PIANO"),  # full-width letters (NFKC)
    ],
)
def test_french_and_compatibility_spellings_are_the_same_word(keyword, clue):
    assert same_word(keyword, clue)


@pytest.mark.parametrize(
    "keyword,clue",
    [
        ("사과", "사과"),
        ("사과", NFD("사과")),  # decomposed Hangul (conjoining jamo)
        ("사과", "사과들"),
        ("사과", "사과를"),
        ("바다", "바다에서"),
        ("학교", "학교로"),
    ],
)
def test_korean_keywords_are_caught_with_particles_plurals_and_any_normal_form(keyword, clue):
    assert same_word(keyword, clue)


@pytest.mark.parametrize(
    "keyword,clue",
    [
        ("사과", "사과나무 아래"),
        ("바다", "푸른 바다가 보인다"),
        ("ÉCOLE", "une école publique"),
        ("CHEVAL", "des chevaux sauvages"),
        ("사과", NFD("빨간 사과를 먹다")),
    ],
)
def test_a_keyword_inside_a_phrase_is_caught_as_a_whole_word(keyword, clue):
    whole_word = clue.split()[0] != "사과나무"
    assert contains_word(clue, keyword) is whole_word  # 사과나무 (apple tree) is another word


@pytest.mark.parametrize(
    "a,b",
    [
        ("사과", "사고"),
        ("바다", "바닥"),
        ("CHAT", "CHÂTEAU"),
        ("CHAT", "CHATON"),
        ("종", "종이"),
        ("사", "사과"),
        ("파", "파도"),
    ],
)  # a syllable that looks like a particle
def test_different_words_stay_different(a, b):
    assert not same_word(a, b)


def test_an_encryptor_cannot_give_their_own_korean_keyword_with_a_particle():
    words = ["사과", "바다", "학교", "나무", "구름", "기차", "우산", "거울", "시계", "연필", "연못", "공원"]
    table = Table(custom_words="\n".join(words), words=words)
    keyword = table.game.keywords["white"][0]
    with pytest.raises(RuleError) as refused:
        table.announce("white", [NFD(keyword) + "를", "하늘", "바람"])
    assert refused.value.code == "clue_is_keyword"


def test_an_encryptor_cannot_reuse_a_french_clue_in_another_spelling():
    table = Table()
    table.announce("white", ["château", "cheval", "école"])
    table.announce("black")
    table.transmission("white")
    table.transmission("black")
    with pytest.raises(RuleError) as refused:
        table.announce("white", ["CHATEAUX", "nuage", "pluie"])
    assert refused.value.code == "clue_reused"
