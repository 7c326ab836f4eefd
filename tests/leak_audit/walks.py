"""The games the audit plays, step by step, auditing after each."""

from __future__ import annotations

from companion.rules import OVER, TEAMS, other
from tools.driver import wrong, wrong2

from .checks import dashed
from .world import World


def guess_form(code, confirm) -> dict:
    return {"code1": str(code[0]), "code2": str(code[1]), "code3": str(code[2]), "confirm": "1" if confirm else "0"}


# --- the walks ---------------------------------------------------------------------------------------


def play_standard(w: World):
    w.step("lobby")
    for name, team in (("Wanda", "white"), ("Bella", "black"), ("Walt", "white"), ("Xena", "white")):
        w.join(name, team)
        w.step(f"{name} joined")
    xena = w.seats.pop("Xena")
    w.do(w.host, "remove-player", seat=xena.seat)
    w.expire(xena, "removed by the table")
    w.step("Xena removed")
    w.join("Boris", "black")
    w.step("Boris joined")
    w.form(w.host, "start", {})
    w.step("started")
    # the teams' notes: each team's alone, for the match (never the other team's, the table's, a summary's)
    w.do(w.seats["Wanda"], "note", keyword=1, text="ZKNOTEWKA")
    w.step("white's note on black's keyword 1", private_to="white")
    w.form(w.seats["Bella"], "note", {"keyword": "3", "text": "ZKNOTEBKC"})
    w.step("black's note on white's keyword 3, without JavaScript", private_to="black")

    # round 1: swaps, a take-back of clues, drafts, no interception
    w.do(w.guesser("white", "white"), "swap-keyword", channel="browser", number=2)
    w.step("white swapped keyword 2")
    w.do(w.guesser("black", "black"), "swap-keyword", number=4)
    w.step("black swapped keyword 4")
    w.do(w.encryptor("white"), "clues", clues=w.clues("white"))
    w.step("white announced")
    w.do(w.host, "take-back")
    w.step("white's clues taken back")
    w.do(w.seats["Walt"], "note", channel="browser", line=1, text="ZKNOTEWLINEONE")
    w.step("white's line on round 1", private_to="white")
    w.form(w.encryptor("white"), "clues", {"clues": w.clues("white")})
    w.step("white announced again")
    w.do(w.encryptor("black"), "clues", channel="browser", clues=w.clues("black"))
    w.step("black announced")
    code = w.code("white")
    w.do(w.guesser("white", "white"), "guess", channel="browser", code=wrong(code), confirm=False)
    w.step("white's draft decryption", private_to="white")
    w.do(w.guesser("white", "white"), "guess", code=wrong(code), confirm=True)
    w.step("white's transmission revealed")
    code = w.code("black")
    w.form(w.guesser("black", "black"), "guess", guess_form(wrong2(code), confirm=False))
    w.step("black's draft decryption", private_to="black")
    w.do(w.guesser("black", "black"), "guess", code=wrong(code), confirm=True)
    w.step("round 1 over")

    # a correction of the last reveal, confirmed by both teams (it stays a miscommunication)
    w.form(w.host, "correction", {"decryption": dashed(wrong2(code))})
    w.step("correction proposed")
    w.do(w.seats["Wanda"], "answer-correction", accept=True)
    w.step("white confirmed")
    w.do(w.seats["Bella"], "answer-correction", channel="browser", accept=True)
    w.step("black confirmed: corrected")

    # a seat link for Bella, claimed by a new phone
    link = w.issue_seat_link("Bella")
    w.step("seat link issued")
    w.claim(link, "Bella")
    w.step("seat link claimed")
    link = w.issue_seat_link("Walt")
    w.step("seat link issued")
    w.do(w.seats["Wanda"], "reject-seat-link", channel="browser", seat=w.seats["Walt"].seat)  # "not Walt's"
    w.handoffs.remove(link)
    w.expire(link, "a seat link its team turned away")
    w.step("seat link turned away by the team")
    w.move_table()
    w.step("the table screen moved to another device")

    # round 2: interceptions, a take-back of a sealed guess, both teams miscommunicate: a collision
    w.do(w.encryptor("white"), "clues", clues=w.clues("white"))
    w.step("white announced")
    w.form(w.encryptor("black"), "clues", {"clues": w.clues("black")})
    w.step("black announced")
    code = w.code("white")
    w.do(w.guesser("black", "white"), "guess", channel="browser", code=wrong(code), confirm=False)
    w.step("black's draft interception", private_to="black")
    w.do(w.guesser("black", "white"), "guess", code=wrong(code), confirm=True)
    w.step("black's interception sealed")
    w.form(w.host, "take-back", {})
    w.step("black's interception taken back")
    w.form(w.guesser("black", "white"), "guess", guess_form(wrong2(code), confirm=True))
    w.step("black's interception sealed again")
    w.do(w.guesser("white", "white"), "guess", code=wrong(code), confirm=False)
    w.step("white's draft decryption", private_to="white")
    w.do(w.guesser("white", "white"), "guess", code=wrong2(code), confirm=False)
    w.step("white's draft replaced by another", private_to="white")
    w.do(w.guesser("white", "white"), "guess", channel="browser", code=wrong2(code), confirm=False)
    w.step("white's draft saved again: nothing changes", private_to="white")
    w.do(w.seats["Boris"], "note", line=2, text="ZKNOTEBLINETWO")
    w.do(w.seats["Bella"], "note", channel="browser", keyword=3, text="ZKNOTEBKCTWICE")
    w.step("black's line on round 2, and its note on keyword 3 rewritten", private_to="black")
    w.do(w.seats["Walt"], "note", keyword=1, text="ZKNOTEWKA")
    w.step("white's note written again as it stands: nothing changes", private_to="white")
    w.do(w.guesser("white", "white"), "guess", channel="browser", code=wrong(code), confirm=True)
    w.step("white's transmission revealed")
    code = w.code("black")
    w.do(w.guesser("white", "black"), "guess", code=wrong2(code), confirm=True)
    w.step("white's interception sealed")
    w.do(w.guesser("black", "black"), "guess", code=wrong(code), confirm=False)
    w.step("black's draft decryption", private_to="black")
    w.do(w.guesser("black", "black"), "guess", code=wrong(code), confirm=True)
    w.step("collision: tiebreak")

    # the tiebreak: the guessing form starts from the team's keyword notes
    w.do(w.seats["Boris"], "note", keyword=2, text="ZKNOTEBKBTIE")
    w.step("black's note during the tiebreak", private_to="black")
    w.do(w.seats["Walt"], "keyword-guesses", guesses=["ZKGUESSWA", "ZKGUESSWB", "", "ZKGUESSWD"])
    w.step("white sealed its keyword guesses")
    w.form(w.seats["Boris"], "keyword-guesses", {"guesses": ["ZKGUESSBA", "ZKGUESSBB", "ZKGUESSBC", "ZKGUESSBD"]})
    w.step("black sealed: judging")
    w.do(w.host, "verdicts", verdicts={"white": [True, False, False, False], "black": [False] * 4})
    w.step("over")

    # a rematch, through the lobby, played to a win
    w.do(w.host, "rematch")
    w.step("rematch: the lobby")
    w.do(w.seats["Walt"], "switch-team", channel="browser")
    w.seated_anew()
    w.step("rematch: Walt switched team")
    w.form(w.host, "shuffle-teams", {})
    w.seated_anew()
    w.step("rematch: teams shuffled")
    w.do(w.host, "set-timer", timer=45)
    w.step("rematch: the sand timer changed")
    w.do(w.host, "start")
    w.step("rematch: started")
    w.do(w.seats["Walt"], "note", keyword=1, text="ZKNOTEREMATCH")
    w.step("rematch: a note of Walt's new team", private_to=w.seats["Walt"].team)
    for team in TEAMS:
        w.do(w.encryptor(team), "clues", clues=w.clues(team))
        w.step(f"rematch: {team} announced")
    w.do(w.guesser("white", "white"), "guess", code=w.code("white"), confirm=True)
    w.step("rematch: white decrypted")
    w.do(w.guesser("black", "black"), "guess", channel="browser", code=wrong(w.code("black")), confirm=True)
    w.step("rematch: round 1 over")
    for team in TEAMS:
        w.do(w.encryptor(team), "clues", clues=w.clues(team))
        w.step(f"rematch round 2: {team} announced")
    for team in TEAMS:
        code = w.code(team)
        w.do(w.guesser(other(team), team), "guess", code=wrong(code), confirm=True)
        w.step(f"rematch round 2: {other(team)} intercepted")
        w.do(w.guesser(team, team), "guess", code=code if team == "white" else wrong(code), confirm=True)
        w.step(f"rematch round 2: {team} decrypted")
    assert w.state().phase == OVER and w.state().result.winners == ("white",)


def play_three(w: World):
    w.step("lobby")
    ivan = w.join("Ivan", "white")
    w.step("Ivan joined the team")
    w.join("Tess", "white")
    w.step("Tess joined")
    # Ivan's phone switches to the Interceptor's seat: its old seat token is withdrawn
    w.seats.pop("Ivan")
    w.join("Ivan", "black", client=ivan.client)
    w.expire(ivan, "left by switching teams", keep_client=False)
    w.step("Ivan switched to the Interceptor")
    w.join("Theo", "white")
    w.step("Theo joined")
    w.do(w.host, "start")
    w.step("started")
    w.do(w.seats["Theo"], "swap-keyword", channel="browser", number=1)
    w.step("the team swapped keyword 1")
    w.form(w.host, "skip-encryptor", {"team": "white"})  # the first tap only asks again
    w.form(w.host, "skip-encryptor", {"team": "white", "confirmed": "1"})
    w.step("the Encryptor was skipped")
    link = w.issue_seat_link("Ivan")
    w.step("seat link issued")
    w.do(w.host, "cancel-seat-link", seat=w.seats["Ivan"].seat)
    w.handoffs.remove(link)
    w.expire(link, "a cancelled seat link")
    w.step("seat link cancelled")

    w.do(w.seats["Ivan"], "note", keyword=2, text="ZKNOTEIVAN")
    w.step("the Interceptor's note", private_to="black")
    w.form(w.encryptor("white"), "clues", {"clues": w.clues("white")})
    w.step("round 1 announced")
    code = w.code("white")
    w.do(w.guesser("white", "white"), "guess", code=wrong(code), confirm=False)
    w.step("the team's draft", private_to="white")
    w.do(w.guesser("white", "white"), "guess", channel="browser", code=code, confirm=True)
    w.step("round 1 over")

    w.do(w.encryptor("white"), "clues", clues=w.clues("white"))
    w.step("round 2 announced")
    code = w.code("white")
    w.do(w.seats["Ivan"], "guess", channel="browser", code=wrong2(code), confirm=False)
    w.step("the Interceptor's draft", private_to="black")
    w.do(w.seats["Ivan"], "guess", code=wrong(code), confirm=True)
    w.step("the Interceptor sealed")
    w.do(w.host, "take-back")
    w.step("the Interceptor's guess taken back")
    w.form(w.seats["Ivan"], "guess", guess_form(wrong(code), confirm=True))
    w.step("the Interceptor sealed again")
    w.do(w.guesser("white", "white"), "guess", code=wrong2(code), confirm=False)
    w.step("the team's draft", private_to="white")
    w.do(w.guesser("white", "white"), "guess", code=wrong2(code), confirm=True)
    w.step("round 2 over: a token for the Interceptor")

    w.do(w.host, "correction", decryption=code, interception=wrong(code))
    w.step("correction proposed")
    w.form(w.seats["Tess"], "answer-correction", {"accept": "1"})
    w.step("the team confirmed")
    w.do(w.seats["Ivan"], "answer-correction", accept=True)
    w.step("the Interceptor confirmed: corrected")

    w.do(w.encryptor("white"), "clues", channel="browser", clues=w.clues("white"))
    w.step("round 3 announced")
    code = w.code("white")
    w.do(w.seats["Ivan"], "guess", code=code, confirm=True)
    w.step("the Interceptor sealed")
    w.do(w.guesser("white", "white"), "guess", code=wrong(code), confirm=True)
    w.step("over: the Interceptor wins")
    assert w.state().phase == OVER and w.state().result.winners == ("black",)
    w.do(w.host, "rematch")
    w.step("rematch")
    w.do(w.host, "shuffle-teams")
    w.seated_anew()
    w.step("rematch: a new Interceptor drawn")
    w.do(w.host, "start")
    w.step("rematch: started")
    w.do(w.encryptor("white"), "clues", clues=w.clues("white"))
    w.step("rematch: announced")


def report(problems: list[str], limit=25) -> str:
    return f"{len(problems)} leak(s):\n" + "\n".join(problems[:limit])


def round_two_in_play(app) -> World:
    """Round 2, both announced; Black's interception of White's code sealed, White's decryption a draft;
    a note of each team."""
    w = World(app)
    for name, team in (("Wanda", "white"), ("Bella", "black"), ("Walt", "white"), ("Boris", "black")):
        w.join(name, team)
    w.do(w.host, "start")
    for round_number in (1, 2):
        for team in TEAMS:
            w.do(w.encryptor(team), "clues", clues=w.clues(team))
        if round_number == 1:
            for team in TEAMS:
                w.do(w.guesser(team, team), "guess", code=w.code(team), confirm=True)
    code = w.code("white")
    w.do(w.guesser("black", "white"), "guess", code=wrong(code), confirm=True)
    w.do(w.guesser("white", "white"), "guess", code=wrong2(code), confirm=False)
    for team, text in (("white", "ZKNOTEPLANTW"), ("black", "ZKNOTEPLANTB")):
        w.do(w.guesser(team, team), "note", keyword=2, text=text)
    return w
