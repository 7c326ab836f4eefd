#!/usr/bin/env bash
# A complete game of Decrypto played through the JSON API with curl and jq (docs/api.md explains it).
#
#   docs/api-walkthrough.sh [BASE_URL]      (default http://127.0.0.1:5000)
#
# Part 1 plays a game to its end: White always decrypts right (its guesser cheats by reading the code
# from its Encryptor's view), Black always decrypts wrong (a guess that repeats a digit can never be a
# code), nobody intercepts, so Black has two Miscommunications after round 2 and White wins.
# Part 2 plays a second game into the keyword tiebreak and judges it.
# Exits non-zero as soon as anything is refused or answers something unexpected.
set -euo pipefail

BASE=${1:-http://127.0.0.1:5000}
BASE=${BASE%/}

# call CURL_ARGS...: prints the JSON answer; on a refusal prints it to stderr and fails.
call() {
  local answer
  answer=$(curl -sS --fail-with-body "$@") || { echo "refused: $answer" >&2; return 1; }
  printf '%s\n' "$answer"
}
# get TOKEN PATH / post TOKEN PATH [JSON]: one API call with a capability token.
get()  { call "$BASE/api$2" -H "Authorization: Bearer $1"; }
post() { call -X POST "$BASE/api$2" -H "Authorization: Bearer $1" -H 'Content-Type: application/json' -d "${3-}"; }
# expect JSON JQ_FILTER: fail unless the filter holds.
expect() { jq -e "$2" >/dev/null <<<"$1" || { echo "unexpected: $2 is false for $1" >&2; return 1; }; }

echo "== Part 1: a game to the end"

# --- create the game (no token needed) ---
GAME_JSON=$(call -X POST "$BASE/api/games" -H 'Content-Type: application/json' -d '{"language": "en"}')
jq . <<<"$GAME_JSON"
GAME=$(jq -r .game_id <<<"$GAME_JSON")
HOST=$(jq -r .tokens.host <<<"$GAME_JSON")
WHITE_JOIN=$(jq -r .tokens.white <<<"$GAME_JSON")
BLACK_JOIN=$(jq -r .tokens.black <<<"$GAME_JSON")

# --- a refusal: starting with empty teams ---
REFUSAL=$(curl -sS -X POST "$BASE/api/games/$GAME/start" -H "Authorization: Bearer $HOST" \
               -w '\nHTTP %{http_code}\n')
echo "$REFUSAL"
expect "$(head -n 1 <<<"$REFUSAL")" '.code == "team_size"'
grep -qx 'HTTP 409' <<<"$REFUSAL"

# --- four players join (seat tokens kept by seat number) ---
declare -A TOKEN
for player in white:Ann black:Bea white:Abe black:Bob; do
  team=${player%%:*} name=${player#*:}
  join_token=$([ "$team" = white ] && echo "$WHITE_JOIN" || echo "$BLACK_JOIN")
  JOINED=$(post "$join_token" "/games/$GAME/join" "$(jq -nc --arg name "$name" '{name: $name}')")
  echo "$name joined $team: $(jq -c '{version, events, seat}' <<<"$JOINED")"
  seat=$(jq .seat <<<"$JOINED")
  TOKEN[$seat]=$(jq -r .token <<<"$JOINED")
done

# --- the host starts the game ---
post "$HOST" "/games/$GAME/start" | jq -c .

# --- polling with an ETag: 200 the first time, 304 while nothing changes ---
ETAG=$(curl -sS -o /dev/null -D - "$BASE/api/games/$GAME" -H "Authorization: Bearer $HOST" |
       tr -d '\r' | sed -n 's/^[Ee][Tt][Aa][Gg]: //p')
echo "ETag: $ETAG"
STATUS=$(curl -sS -o /dev/null -w '%{http_code}' "$BASE/api/games/$GAME" \
              -H "Authorization: Bearer $HOST" -H "If-None-Match: $ETAG")
echo "polled again: HTTP $STATUS"
[ "$STATUS" = 304 ]

# encryptor TEAM: this round's Encryptor's seat, from the host's view.
encryptor() { get "$HOST" "/games/$GAME" | jq ".rounds[-1].transmissions.$1.encryptor"; }
# guesser TEAM: a player of TEAM who is not its Encryptor this round.
guesser() { get "$HOST" "/games/$GAME" | jq "[.teams.$1.players[] | select(.encryptor | not)][0].seat"; }
# guess SEAT TEAM CODE: seal SEAT's team's guess of TEAM's transmission in this $round (the target:
# if that transmission isn't the one open, the guess is refused as stale instead of landing on another).
guess() {
  post "${TOKEN[$1]}" "/games/$GAME/guess" \
       "{\"code\": $3, \"confirm\": true, \"match\": 1, \"round\": $round, \"transmission\": \"$2\"}"
}

for round in 1 2; do
  echo "-- Round $round"
  W_ENC=$(encryptor white)
  B_ENC=$(encryptor black)
  W_GUESSER=$(guesser white)
  B_GUESSER=$(guesser black)

  # Each Encryptor reads their code and their team's keywords from their own view...
  W_VIEW=$(get "${TOKEN[$W_ENC]}" "/games/$GAME")
  jq -c '{task: .you.task, code: .you.code, keywords: .teams.white.keywords}' <<<"$W_VIEW"
  W_CODE=$(jq -c .you.code <<<"$W_VIEW")
  # ...and announces three clues (any words that are not the team's keywords or earlier clues).
  post "${TOKEN[$W_ENC]}" "/games/$GAME/clues" "{\"clues\": [\"w${round}a\", \"w${round}b\", \"w${round}c\"]}" | jq -c .
  post "${TOKEN[$B_ENC]}" "/games/$GAME/clues" "{\"clues\": [\"b${round}a\", \"b${round}b\", \"b${round}c\"]}" | jq -c .

  # Everybody now sees White's clues: White's transmission is open.
  get "${TOKEN[$W_GUESSER]}" "/games/$GAME" | jq -c '{transmission, clues: .rounds[-1].transmissions.white.clues, task: .you.task}'

  if [ "$round" = 1 ]; then
    # A draft (confirm false) that the team can still change; a code may also be sent as a string.
    post "${TOKEN[$W_GUESSER]}" "/games/$GAME/guess" '{"code": "1-2-3", "confirm": false}' | jq -c .
    get "${TOKEN[$W_GUESSER]}" "/games/$GAME" | jq -c .rounds[-1].transmissions.white.decryption
  fi
  # White's transmission: Black intercepts (from round 2) with a wrong code, White decrypts right.
  if [ "$round" -gt 1 ]; then guess "$B_GUESSER" white '[1, 1, 1]' | jq -c .; fi
  guess "$W_GUESSER" white "$W_CODE" | jq -c .
  # Black's transmission: White intercepts (from round 2), Black decrypts wrong.
  if [ "$round" -gt 1 ]; then guess "$W_GUESSER" black '[1, 1, 1]' | jq -c .; fi
  guess "$B_GUESSER" black '[1, 1, 1]' | jq -c .

  get "$HOST" "/games/$GAME" | jq -c '.last_reveal | {round, team, code, intercepted, miscommunicated}'
done

FINAL=$(get "$HOST" "/games/$GAME")
jq '{phase, result}' <<<"$FINAL"
expect "$FINAL" '.phase == "over" and .result.winners == ["white"] and .result.reason == "miscommunications"'

echo "== Part 2: a tiebreak"
# Both teams misread their own code twice: a collision after round 2, with tied scores.
GAME_JSON=$(call -X POST "$BASE/api/games")
GAME=$(jq -r .game_id <<<"$GAME_JSON")
HOST=$(jq -r .tokens.host <<<"$GAME_JSON")
declare -A TOKEN=()
for player in white:Ann black:Bea white:Abe black:Bob; do
  team=${player%%:*} name=${player#*:}
  JOINED=$(post "$(jq -r ".tokens.$team" <<<"$GAME_JSON")" "/games/$GAME/join" "{\"name\": \"$name\"}")
  TOKEN[$(jq .seat <<<"$JOINED")]=$(jq -r .token <<<"$JOINED")
done
post "$HOST" "/games/$GAME/start" >/dev/null
for round in 1 2; do
  W_ENC=$(encryptor white)
  B_ENC=$(encryptor black)
  W_GUESSER=$(guesser white)
  B_GUESSER=$(guesser black)
  post "${TOKEN[$W_ENC]}" "/games/$GAME/clues" "{\"clues\": [\"w${round}a\", \"w${round}b\", \"w${round}c\"]}" >/dev/null
  post "${TOKEN[$B_ENC]}" "/games/$GAME/clues" "{\"clues\": [\"b${round}a\", \"b${round}b\", \"b${round}c\"]}" >/dev/null
  if [ "$round" -gt 1 ]; then guess "$B_GUESSER" white '[1, 1, 1]' >/dev/null; fi
  guess "$W_GUESSER" white '[1, 1, 1]' >/dev/null
  if [ "$round" -gt 1 ]; then guess "$W_GUESSER" black '[1, 1, 1]' >/dev/null; fi
  guess "$B_GUESSER" black '[1, 1, 1]' | jq -c .
done
get "$HOST" "/games/$GAME" | jq -c '{phase, tiebreak}'

# Each team seals its guesses of the other team's keywords. (White cheats again: it reads Black's
# keywords from a Black player's view; Black leaves all four blank.)
BLACK_KEYWORDS=$(get "${TOKEN[2]}" "/games/$GAME" | jq -c .teams.black.keywords)
post "${TOKEN[1]}" "/games/$GAME/keyword-guesses" "{\"guesses\": $BLACK_KEYWORDS}" | jq -c .
post "${TOKEN[2]}" "/games/$GAME/keyword-guesses" '{"guesses": ["", "", "", ""]}' | jq -c .

# The host reads the app's proposal and sends it as the verdicts.
PROPOSAL=$(get "$HOST" "/games/$GAME" | jq -c .tiebreak.proposal)
echo "proposal: $PROPOSAL"
post "$HOST" "/games/$GAME/verdicts" "{\"verdicts\": $PROPOSAL}" | jq -c .
FINAL=$(get "$HOST" "/games/$GAME")
jq -c '.result' <<<"$FINAL"
expect "$FINAL" '.result.winners == ["white"] and .result.reason == "keywords" and .result.cause == "collision"'
echo "Walkthrough complete."
