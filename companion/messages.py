"""Sentences a player understands, for every reason the rules or the web layer refuse a command.

The rules raise `RuleError(code, **params)`; this is the one place that words them (through
Flask-Babel, so every sentence can be translated).
"""

from flask import g, has_request_context
from flask_babel import get_translations
from flask_babel import lazy_gettext as _l


def N_(message: str) -> str:
    """Marks a message for extraction; it is translated where it is shown (`translate`)."""
    return message


def catalogue():
    """This request's translations: the catalogue `speak` chose for it if there is one (Flask-Babel finds
    the catalogue anew on every call: a sixth of a page's render, with ~50 messages)."""
    chosen = g.get("catalogue") if has_request_context() else None
    return chosen or get_translations()


def translate(message: str) -> str:
    """`message` in this request's language."""
    return catalogue().ugettext(message)


TEAM_NAMES = {"white": N_("White"), "black": N_("Black")}
# The three-player game: the team plays behind the white screen against one Interceptor.
THREE_PLAYER_NAMES = {"white": N_("The team"), "black": N_("The Interceptor")}

REFUSALS = {
    # joining and starting
    "join_link_only": _l("Only a team's join link can seat a player."),
    "name_required": _l("Type your name to take a seat."),
    "name_length": _l("A name has %(min)s to %(max)s characters."),
    "name_taken": _l("Someone on this team is already called %(name)s. Add an initial or pick a nickname."),
    "team_full": _l("This team already has %(max)s players. Join the other team, or watch."),
    "team_size": _l("Each team needs %(min)s to %(max)s players before the game can start (%(team)s does not)."),
    "three_player_seats": _l("The three-player game needs two players in the team and one Interceptor (so far: %(players)s in the team, %(interceptors)s Interceptor)."),
    "teams_uneven": _l("Teams must be as even as possible (White %(white)s, Black %(black)s): someone from %(team)s can scan the other team's code to switch."),
    "already_seated": _l("This phone already has a seat on this team."),
    "not_enough_words": _l("The word list has fewer than 8 distinct words."),
    "host_only": _l("Only the table screen can do that."),
    "players_only": _l("Only a seated player can do that. Scan your team's QR code to take a seat."),
    "game_exists": _l("This game has already been created."),
    "unknown_language": _l("That language is not available."),
    "unknown_mode": _l("Choose the standard game or the three-player game."),
    "timer_length": _l("The sand timer runs %(min)s to %(max)s seconds."),
    "words_malformed": _l("Write your words one per line (or separated by commas), at most 40 characters each."),
    "too_many_words": _l("That list is too long: at most %(max)s words."),
    "too_few_words": _l("Your list has %(count)s different words; it needs at least %(min)s. Repeated or plural forms of one word count once (%(repeated)s)."),
    "no_such_join_code": _l("No game is waiting for players with this code. Check the code on the table screen, or scan your team's QR code."),
    "try_out_fixed_seats": _l("A try-out keeps its own seats: create a new game to play with other people."),
    # host corrections
    "joining_locked": _l("Joining is locked. Ask the table screen to reopen it."),
    "locked_malformed": _l("Say whether joining is locked or open."),
    "already_locked": _l("Joining is already locked."),
    "already_open": _l("Joining is already open."),
    "too_few_to_shuffle": _l("Seat at least two players before shuffling the teams."),
    "no_such_player": _l("There is no such player in this game."),
    "no_such_team": _l("There is no such team in this round."),
    "nobody_to_skip_to": _l("Nobody else on that team can take the round."),
    "nothing_to_take_back": _l("There is nothing to take back: every entry of this round is revealed, or none was made."),
    "nothing_to_correct": _l("Only the last reveal can be corrected, and only before the next clues are announced."),
    "correction_changes_nothing": _l("That correction changes nothing: enter the guesses as they should have been."),
    "correction_pending": _l("A correction of the last reveal is waiting: both teams must first answer it on their phones."),
    "no_correction": _l("There is no correction to answer."),
    "correction_already_confirmed": _l("Your team has already confirmed this correction."),
    "accept_malformed": _l("Confirm or reject the correction."),
    "no_seat_link": _l("That player has no new seat link waiting."),
    "seat_link_only": _l("Only a seat link from the table screen can do that."),
    "summary_not_ready": _l("The summary is ready once the game is over."),
    # the keyword swap
    "no_keywords": _l("You have no keywords to swap."),
    "swap_too_late": _l("Keywords can only be swapped in round 1, before your team's clues are announced."),
    "already_swapped": _l("Your team has already swapped a keyword."),
    "keyword_number": _l("Choose which keyword to swap: 1, 2, 3 or 4."),
    "no_spare_words": _l("There is no spare word left in this game's word list."),
    # phases
    "game_not_started": _l("The game has not started yet."),
    "game_in_progress": _l("The game has already started: new players can't join now."),
    "judging_in_progress": _l("Both teams' keyword guesses are in: the table screen is comparing them."),
    "tiebreak_in_progress": _l("The rounds are over: the game is in its tiebreak."),
    "game_over": _l("The game is over."),
    # clues
    "not_encryptor": _l("Only this round's Encryptor announces the clues."),
    "clues_already_announced": _l("The clues are announced: they can't be changed any more."),
    "three_clues": _l("Announce exactly three clues, one for each digit of the code."),
    "clue_empty": _l("Every clue needs at least one letter."),
    "clue_is_keyword": _l("“%(clue)s” uses your keyword %(keyword)s. Pick another clue."),
    "clue_reused": _l("Your team already gave the clue “%(clue)s” in this game."),
    "clue_repeated": _l("“%(clue)s” appears twice: give three different clues."),
    # guesses
    "clues_not_announced": _l("Wait until both Encryptors have announced their clues."),
    "encryptor_cannot_guess": _l("You are this transmission's Encryptor: let your team guess on its own."),
    "no_interception_round_one": _l("Nobody intercepts in round 1: listen and take notes for later."),
    "guess_sealed": _l("Your team's guess is sealed: it can't be changed any more."),
    "guess_malformed": _l("A guess is three digits from 1 to 4, one for each clue."),
    # tiebreak
    "keyword_guesses_sealed": _l("Your team's keyword guesses are already sealed."),
    "four_keyword_guesses": _l("Write one guess for each of the other team's four keywords (a blank is allowed)."),
    "verdicts_malformed": _l("Mark each of the eight keyword guesses as right or wrong."),
    # text
    "text_too_long": _l("That is too long: at most %(limit)s characters."),
    "text_has_control_characters": _l("That text contains invisible control characters."),
    "unknown_command": _l("That is not something the app knows how to do."),
    "busy": _l("The game is very busy right now. Please try again."),
    # web layer
    "no_capability": _l("This link is not valid. Ask the table screen for your team's QR code."),
    "wrong_game": _l("That link belongs to another game."),
    "not_seated": _l("This phone has no seat in this game. Scan your team's QR code to join."),
    "seat_gone": _l("This phone no longer has its seat: it moved to another phone, or the table screen removed it. Ask the table screen for a new seat link to play here."),
    "malformed_body": _l("The request could not be read: send a JSON object."),
    "csrf": _l("This page was open too long or came from elsewhere. Reload it and try again."),
    "not_found": _l("There is nothing here. Check the link, or scan the QR code again."),
    "too_large": _l("That request is too large."),
    "rate_limited": _l("Too many attempts from this device in a short time. Wait a minute, then try again."),
    "server_error": _l("Something went wrong on the server. Nothing was lost: reload the page in a moment."),
    "method_not_allowed": _l("That action can't be done from here."),
}


def refusal(code: str, **params) -> str:
    """The translated sentence for a refusal code."""
    message = REFUSALS.get(code, REFUSALS["unknown_command"])
    team = params.get("team")
    if team in TEAM_NAMES:
        params = {**params, "team": team_name(team)}
    text = str(message)      # translated now, in the request's language
    return text % params if params else text

# What a player's phone asks of them now (views.py `you.task`).
TASKS = {
    "wait_for_start": _l("You're seated. The game starts from the table screen once both teams have 2 to 4 players."),
    "write_clues": _l("You are the Encryptor. Reveal your code, then write one clue for each digit."),
    "wait_for_clues": _l("The Encryptors are writing their clues."),
    "wait_for_encryptor": _l("The Encryptor is writing the clues."),
    "encryptor_waits": _l("Your team is guessing your code. Say nothing, keep a straight face."),
    "no_interception_yet": _l("No interception in round 1: listen, and note the clues."),
    "decrypt": _l("Agree with your team on the code, then enter it."),
    "intercept": _l("Intercept: agree with your team on their code, then enter it."),
    "intercept_alone": _l("Intercept: work out the team's code from its clues, then enter it."),
    "guess_sealed": _l("Your team's guess is sealed. Waiting for the other team."),
    "guess_keywords": _l("Tiebreak: guess the other team's four keywords, one per number."),
    "keywords_sealed": _l("Your keyword guesses are sealed. Waiting for the other team."),
    "wait_for_judging": _l("The table screen compares the keyword guesses."),
    "answer_correction": _l("The table screen asks to correct the last reveal. Check it with your team, then confirm or reject it."),
    "wait_for_correction": _l("Your team confirmed the correction. Waiting for the other side."),
    "game_over": _l("The game is over."),
    "wait": _l("Waiting…"),
}

# Why a game ended (rules.round_end reasons), with the winning team as %(team)s.
REASONS = {
    "interceptions": _l("%(team)s intercepted two codes."),
    "miscommunications": _l("%(loser)s misread its own Encryptor twice."),
    "interceptions_and_miscommunications": _l("%(team)s intercepted two codes, and %(loser)s misread its own Encryptor twice."),
    "score": _l("Tiebreak: %(team)s has the better score (Interceptions minus Miscommunications)."),
    "keywords": _l("Tiebreak: %(team)s guessed more of the other team's keywords."),
    "shared": _l("Tiebreak: still tied after guessing keywords, so both teams share the victory."),
    "interceptor_tokens": _l("The Interceptor earned two tokens."),
    "team_survived": _l("The team kept its codes safe for five rounds."),
}

CAUSES = {
    "collision": _l("The end-of-round conditions collided."),
    "round_limit": _l("Eight rounds passed without a winner."),
}


def team_name(team: str, mode: str | None = None) -> str:
    """A side's name: White or Black, or in the three-player game the team and the Interceptor (of this
    request's game, unless `mode` names another game's)."""
    three = (mode or (has_request_context() and g.get("mode"))) == "three_player"
    name = (THREE_PLAYER_NAMES if three else TEAM_NAMES).get(team)
    return translate(name) if name else team


def reason_text(result: dict) -> str:
    winner = result["winners"][0]
    loser = "black" if winner == "white" else "white"
    return str(REASONS[result["reason"]]) % {"team": team_name(winner), "loser": team_name(loser)}
