"""The sentences the bot shows today (cogs/*.py and render/*.py), declared for the catalogues.

The cogs and pictures still hold their English literals; when they switch to `translate(locale, ...)` they use
these msgids (or change them: `python -m i18n extract` then updates the catalogues). Placeholders are named and
carry whole values (a name, a number, a domino's words); no sentence is glued together from translated pieces:
a part that varies (what a player must do) has one whole sentence per case.
Plural pairs are `NP_(singular, plural)`; the number is `{n}`.
"""

from __future__ import annotations

from . import N_, NP_

# -- counts (common.count, views.points) -------------------------------------------------------------------------
COINS = NP_("{n} coin", "{n} coins")
KNIGHTS = NP_("{n} knight", "{n} knights")
TOWERS = NP_("{n} tower", "{n} towers")
POINTS = NP_("{n} point", "{n} points")
POINTS_SIGNED = NP_("+{n} point", "+{n} points")  # a gain shown before placing
DOMINOES_UNSEEN = NP_("{n} domino not seen yet.", "{n} dominoes not seen yet.")

# -- names and small words (cogs/common.py) ------------------------------------------------------------------------
PLAYER = N_("Player")  # the name of a player with no usable name
COMPUTER_NAME = N_("**{name}** (computer)")
BOT_NAME = N_("Bot {number} ({level})")
LEVELS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard"), "expert": N_("expert")}
PERMISSIONS = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "attach_files": N_("Attach Files"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
}
TWO_CELLS = N_("{first} and {second}")

# What the player to act must do: one whole sentence per case. The "you" forms are imperative clauses complete in
# themselves, filled into `{what}`: translations put `{what}` after a colon ("it's your turn: {what}"), never
# inside a clause ("you must {what}") where their language would need another form of the verb.
DECISION_YOU = {
    "first_claim": N_("choose a domino of the first line for your king"),
    "place": N_("place domino {domino}"),
    "tax": N_("send knights to collect tax, or skip"),
    "build": N_("build a building, or skip"),
    "dragon": N_("bribe the dragon to burn a building, or skip"),
    "claim": N_("choose a domino of the next line"),
}
DECISION_OTHER = {
    "first_claim": N_("It's {name}'s turn: they must choose a domino of the first line for their king."),
    "place": N_("It's {name}'s turn: they must place domino {domino}."),
    "tax": N_("It's {name}'s turn: they must decide on tax."),
    "build": N_("It's {name}'s turn: they must decide on building."),
    "dragon": N_("It's {name}'s turn: they must decide on the dragon."),
    "claim": N_("It's {name}'s turn: they must choose a domino of the next line."),
}

DECISION_OTHER_PLACE = N_("It's {name}'s turn: they must place their domino.")  # when the domino is not named
DECISION_YOU_PLACE = N_("place your domino")  # "you must {what}" when the domino is not named

SCORES_LINE = N_("Scores: {scores}")
DYNASTY_TOTALS_LINE = N_("Dynasty totals: {scores}")
ECONOMY_LINE = N_("{kingdom}: coins {coins}, knights in reserve {knights}, towers {towers}")
ECONOMY_LINE_QUEEN = N_("{kingdom}: coins {coins}, knights in reserve {knights}, towers {towers}, 👑 hosts the queen")
BREAKDOWN_LINE = N_("**{kingdom}**: {total} ({detail})")
NOTHING_YET = N_("nothing yet")
DYNASTY_SO_FAR = N_("{kingdom}, Dynasty games so far: {games}")
SCORE_PARTS = {
    "queen": N_("queen"),
    "buildings": N_("buildings"),
    "coins": N_("coins"),
    "middle_kingdom": N_("Middle Kingdom"),
    "harmony": N_("Harmony"),
}  # the terrains use their terms

# -- admin -------------------------------------------------------------------------------------------------------
ONLY_OWNER_SYNC = N_("Only the bot's owner can sync commands.")
SYNC_WHERE = N_("Use this in a server, or set DEV_GUILD_ID.")
SYNCED_GLOBAL = NP_("Synced {n} command globally.", "Synced {n} commands globally.")
SYNCED_GUILD = NP_("Synced {n} command to guild {guild}.", "Synced {n} commands to guild {guild}.")

# -- the lobby (cogs/lobby.py) -----------------------------------------------------------------------------------
VARIANT_OPTIONS = {
    "dynasty": N_("Dynasty: three games, the highest sum wins"),
    "middle-kingdom": N_("Middle Kingdom: +10 for a centred castle"),
    "harmony": N_("Harmony: +5 for no discarded domino"),
    "mighty-duel": N_("Mighty Duel: 2 players, 7x7, all dominoes"),
    "three-player-four-dominoes": N_("3 players with lines of 4 (BGA)"),
}
LOBBY_TITLE = N_("**{game}** — new table by {host} ({taken}/{size} seats taken)")
LOBBY_TEAMS = N_("Teams of two share a kingdom; the host arranges the teams by swapping seats.")
LOBBY_TEAM = N_("Team {number}: {members}")
LOBBY_FREE_SEAT = N_("(free seat)")
LOBBY_VARIANTS = N_("Variants: {variants}")
LOBBY_REMINDER = N_("Turns: reminder after {hours} h.")
LOBBY_DEADLINE = N_("Turns: after {hours} h the computer plays for an absent player.")
LOBBY_REMINDER_DEADLINE = N_(
    "Turns: reminder after {reminder} h, after {deadline} h the computer plays for an absent player."
)
LOBBY_OPEN = N_("Click **Join** to take a seat; the host starts the game.")
LOBBY_CANCELLED = N_("This table was cancelled.")
LOBBY_STARTED = N_("The game has started: see the table below.")
BUTTON_JOIN = N_("Join")
BUTTON_LEAVE = N_("Leave")
BUTTON_START = N_("Start")
BUTTON_CANCEL = N_("Cancel")
BUTTON_REMATCH = N_("Rematch")
ADD_COMPUTER = N_("Add a computer player ({level})")
REMOVE_COMPUTER = N_("Remove a computer player")
COMPUTER_PLACEHOLDER = N_("Computer players (host only)")
SWAP_PLACEHOLDER = N_("Swap two seats to arrange teams (host only)")
MISSING_PERMISSIONS = N_("I am missing permissions in this channel: {permissions}. Ask an admin to grant them.")
CHANNEL_HAS_GAME = N_(
    "This channel already has a game (#{game_id}, {status}){link}. Finish or cancel it first, or start a thread "
    "for another game."
)
GAME_STATUS = {"lobby": N_("lobby"), "playing": N_("playing")}  # {status} of CHANNEL_HAS_GAME
DISCORD_FAILED_LOBBY = N_("Discord did not take the table just now: try `/game new` again in a moment.")
CANNOT_POST_TABLE = N_(
    "I could not post the table in this channel ({error}): check that I can view the channel, send messages and "
    "attach files."
)
TABLE_OPEN = N_("Your table is open: players join with the **Join** button below.")
PICK_TWO_SEATS = N_("Pick two different seats to swap.")
PLAYER_LEFT_MEANWHILE = N_("One of those players has left the table meanwhile: pick again from the lobby's new list.")
ALREADY_OVER = N_("This game is already over.")
ONLY_HOST_CANCEL = N_("Only the host or a member with Manage Channels can cancel this game.")
GAME_CANCELLED_PRIVATE = N_("The game is cancelled.")
GAME_CANCELLED_PUBLIC = N_("❌ {game} game #{game_id} was cancelled by {user}.")
LOBBY_CLOSED = N_("This lobby is closed: the game has started or ended.")
ALREADY_SEATED = N_("You already have a seat at this table.")
TABLE_FULL = N_("The table is full ({size} seats).")
JOINED = N_("You joined the table.")
NO_SEAT = N_("You have no seat at this table.")
LEFT = N_("You left the table.")
ONLY_HOST_COMPUTERS = N_("Only the host adds or removes computer players.")
NO_COMPUTER = N_("There is no computer player to remove.")
SOMEONE_LEFT = N_("{name} left the table.")
SOMEONE_JOINED = N_("{name} joined the table.")
ONLY_HOST_SEATS = N_("Only the host ({host}) arranges the seats.")
SWAPPED = N_("{first} and {second} swapped seats.")
ONLY_HOST_START = N_("Only the host ({host}) can start the game.")
GAME_STARTED = N_("The game has started.")
UNKNOWN_LOBBY_ACTION = N_("Unknown lobby action {action}.")
CANNOT_START = N_("This table cannot start yet: {reason}")
REMATCH_ONLY_PLAYERS = N_("Only the players of that game can ask for a rematch: start a new one with `/game new`.")
REMATCH_NOTE = N_("🔁 Rematch! Same players and options; the host can start when everyone is ready.")
# Branch notify: the Rematch button is the players'; someone who watched joins its table like any other.
REMATCH_WATCHER = N_(
    "**Rematch** is for the players of that game: their table is open, so take a seat with its **Join** button "
    "while one is free."
)
PLAYER_RANGE = N_("{game} takes {low}-{high} players, not {size}.")
COMPUTERS_AT_MOST = NP_(
    "Leave at least one seat for a person: at most {n} computer player.",
    "Leave at least one seat for a person: at most {n} computer players.",
)
HOURS_RANGE = N_("{option} must be between 0.5 and 720 hours.")
TABLE_IMPOSSIBLE = N_("That table is not possible: {reason}")

# -- playing (cogs/views.py, cogs/play.py) -----------------------------------------------------------------------
SORRY = N_("Sorry, something went wrong on my side; it has been logged. Look at the latest table before trying again.")
STALE = N_("The table changed since this was shown: look at the latest table and try again.")
PREVIEW = N_("Preview: domino {domino} with its first square on {cell} and the second {direction}: **{gain}** now.")
BUTTON_CONFIRM = N_("Confirm")
BUTTON_BACK = N_("Back")
NOT_PLAYED_ANY_MORE = N_("This game is not being played any more.")
YOUR_TURN_HEAD = N_("**Your turn** — {what}.")
PICK_FIRST_LINE = N_("Pick a free domino of the first line (number and squares shown).")
PICK_NEXT_LINE = N_("Pick a free domino of the next line (number and squares shown).")
ONLY_ONE_PLACEMENT = N_("Only one placement is possible.")
NO_PLACEMENT_FROM = N_("{cell} has no legal placement: pick another cell.")
ONLY_DIRECTION = N_("From {cell} the second square can only go {direction}.")
WHICH_WAY = N_("First square {square} on **{cell}**: which way does the second square ({second}) go?")
DIRECTION_LABEL = N_("{arrow} {direction} ({gain})")
DIRECTIONS = {"up": N_("up"), "right": N_("right"), "down": N_("down"), "left": N_("left")}
THEN_DIRECTIONS = N_("then {directions}")
CELL_PLACEHOLDER = N_("Cell for {square} ({first} to {last})")
OPTIONAL_HEAD = NP_(
    "**Your turn** — you may now do these steps, in this order, or skip them. You have {n} coin.",
    "**Your turn** — you may now do these steps, in this order, or skip them. You have {n} coins.",
)
KNIGHT_ON_CELL = NP_("Knight on {cell}: +{n} coin", "Knight on {cell}: +{n} coins")
KNIGHTS_ON_BOTH = NP_("Knights on both squares: +{n} coin", "Knights on both squares: +{n} coins")
TAX_STEP = NP_(
    "**Tax**: send knights onto the domino you just placed ({n} knight in reserve); each collects one coin per "
    "square of its territory, plus building bonuses.",
    "**Tax**: send knights onto the domino you just placed ({n} knights in reserve); each collects one coin per "
    "square of its territory, plus building bonuses.",
)
BUILD_OPTION = NP_("{building} — {n} coin", "{building} — {n} coins")
BUILD_PLACEHOLDER = N_("Build: choose a building you can afford")
BUILD_STEP = N_("**Build**: buy a building of the builders' board and put it on a free town square.")
BURN_OPTION = N_("Burn: {building}")
BURN_SLOT = N_("slot {slot} of the builders' board")
DRAGON_PLACEHOLDER = N_("Dragon: 1 coin, burn a building")
DRAGON_STEP = N_("**Dragon**: for 1 coin it burns a building of the builders' board (once a round).")
DONE_CLAIM = N_("Done, choose my next domino")
DONE_END = N_("Done, end my turn")
CANNOT_BUILD_THAT = N_("You cannot build that one now: choose another building or skip.")
BUILD_ON = N_("Build on {cell}")
BUILD_WHERE = NP_(
    "Build the **{building}** for {n} coin on which town square?",
    "Build the **{building}** for {n} coins on which town square?",
)
DONE = N_("Done ✔ — the table is updated in the channel.")
PICK_CELL_LIST = N_("Pick a cell from the list.")
PICK_BUILDING_LIST = N_("Pick a building from the list.")
PICK_BURN_LIST = N_("Pick the building to burn from the list.")
BUTTON_TAKE_TURN = N_("Take my turn")
GAME_OVER_BUTTONS = N_("This game is over: these buttons no longer do anything.")
TABLE_OUT_OF_DATE = N_("This table is out of date: use the buttons on the latest table in the channel.")
NOT_PLAYING = N_("You are not playing in this game: you can watch with `/look table`.")
LOOKS = {
    "kingdom": N_("My kingdom"),
    "scores": N_("Scores"),
    "remaining": N_("To come"),
    "history": N_("History"),
}
BUILDING_EFFECT = N_("{building} ({effect})")
PICK_FROM_SUGGESTIONS = N_("Pick the building and the cell from the suggestions (e.g. building 3, cell E4).")
PICK_BURN_SUGGESTIONS = N_("Pick the building to burn from the suggestions.")
CELL_THEN = N_("{cell} (then {directions})")
TAX_CHOICE = NP_("{cells} (+{n} coin)", "{cells} (+{n} coins)")
BUILD_CHOICE = NP_("{building} — {n} coin: {effect}", "{building} — {n} coins: {effect}")

# -- the turn in fewer taps (branch phone): spots as buttons and lists, confirm and take the next domino in one tap
SPOT_LABEL = N_("{cell} {arrow} ({gain})")  # a button: where the first square goes, the arrow to the second
SPOT_OPTION = N_("{cell} {arrow} {direction} ({gain})")  # the same in a list
SPOT_PLACEHOLDER = N_("Every other spot ({first} to {last})")
PICK_SPOT = N_("Choose a spot to see it first: the buttons score the most now, the list has every other spot.")
SPOT_LEGEND = N_("{spot} puts the first square ({square}) on {cell} and the second ({second}) next to it, {direction}.")
PICK_SPOT_LIST = N_("Pick a spot from the list.")
CONFIRM_TAKE = N_("Confirm, take {domino}")
CONFIRM_END = N_("Confirm and end my turn")
CONFIRM_THEN_STEPS = N_("Confirm, then tax, build or dragon")
PREVIEW_TAKE = N_("Tap the domino you want next: that confirms this placement too.")
PREVIEW_TAKE_OR_STEPS = N_(
    "Tap the domino you want next: that confirms this placement and skips tax, buildings and the dragon. To use "
    "them, confirm first."
)
PREVIEW_END_OR_STEPS = N_("Confirm and end your turn, or confirm first to use tax, buildings or the dragon.")
PLACED_NOT_TAKEN = N_("Your domino is placed, but the next one could not be taken: {reason}")
TAKE_DOMINO = N_("Take {domino}")
STEPS_THEN_TAKE = N_("Done with them, or skipping them? Tap the domino you want next.")
DECISION_YOU_FIRST_OF_TWO = N_("choose the first of your two dominoes of the first line")
DECISION_YOU_SECOND_PICK = N_("choose your second domino of the first line")
SCORES_LINE_COINS = N_("Scores, with 1 point for every 3 coins: {scores}")
BREAKDOWN_LEGEND = N_("Each territory scores its squares × its crowns.")
FORCED_CLAIMED = N_("{player} was left with domino {domino}, the last free one.")

# Building effects (engine BuildingType.effect_text), one whole phrase each.
EFFECT_KNIGHTS = NP_("+{n} knight", "+{n} knights")
EFFECT_TOWERS = NP_("+{n} tower", "+{n} towers")
EFFECT_TAX_PER_KNIGHT = N_("tax +1 coin per knight owned")
EFFECT_TAX_PER_TOWER = N_("tax +1 coin per tower")
EFFECT_CROWN = N_("1 crown")
EFFECT_FIXED = NP_("{n} point", "{n} points")
EFFECT_PER_TERRITORY = N_("2 points per {terrain} territory")
EFFECT_PER_TOWER = N_("1 point per tower")
EFFECT_PER_KNIGHT = N_("1 point per knight")
EFFECT_NONE = N_("no effect")

# -- the service (cogs/service.py) -------------------------------------------------------------------------------
GAME_UNREADABLE = N_("Game #{game_id} cannot be read ({error}). Other games are not affected.")
CHANNEL_GAME_UNREADABLE = N_("The game in this channel cannot be read ({error}).")
NO_GAME_HERE = N_("There is no game in this channel: start one with `/game new`.")
NOT_STARTED_YET = N_("The game in this channel has not started yet: the host starts it from the lobby.")
FORCED_CLAIM = N_("Your king took domino {domino}, the last free one.")
MOVE_SAVED_BUT = N_("Your move is saved, but: {reason} The table will be posted again shortly.")
TABLE_NOT_UPDATED = N_("I could not update the table just now.")
COULD_NOT_UPDATE = N_("I could not update the table just now.")
GAME_BEGINS = N_("The game begins: {setup}.")
KINGDOM_LIMIT = N_("Each kingdom must fit in {size}×{size} squares, its castle included.")
SETUP = NP_("{game}, {n} player", "{game}, {n} players")
SETUP_TEAMS = NP_("{game}, {players} players in {n} team", "{game}, {players} players in {n} teams")
SETUP_VARIANTS = N_("{setup} ({variants})")
TABLE_FINAL = N_("**{game}** — final table")
TABLE_FIRST_LINE = N_("**{game}** — choosing the first line")
TABLE_ROUND = N_("**{game}** — round {round}/{rounds}")
TABLE_DYNASTY_ROUND = N_("**{game}** — game {deal}/3, round {round}/{rounds}")
WINNER = N_("🏆 **{names}** wins!")
WINNERS = N_("🏆 **{names}** win!")
WINNER_TIEBREAK = N_("🏆 **{names}** wins (tie-break: {tiebreak})!")
WINNERS_TIEBREAK = N_("🏆 **{names}** win (tie-break: {tiebreak})!")
YOUR_TURN_TABLE = N_("➡️ {player}, it's your turn: {what}.")
PICTURE_FAILED = N_("⚠️ The picture of the table could not be drawn this time; the game goes on.")
CANNOT_POST_PERMISSIONS = N_(
    "I cannot post the table in this channel: I need the Send Messages and Attach Files permissions (and Send "
    "Messages in Threads in a thread)."
)
TIME_RAN_OUT = N_("⏰ {name}'s time ran out: the computer played their turn.")
REMINDER = N_("⏳ {player}, reminder: it's your turn in {game}: {what}.")
REMINDER_LINK = N_("⏳ {player}, reminder: it's your turn in {game}: {what}. The table: {link}")

DM_TURN = N_("🎲 It's your turn in {game} ({where}): {what}.")
DM_TURN_LINK = N_("🎲 It's your turn in {game} ({where}): {what}. The table: {link}")
# Branch notify: reminders that say so, the turn told in the channel when a DM cannot be sent, the private note
# about closed DMs.
DM_REMINDER = N_("⏳ Reminder: it's still your turn in {game} ({where}): {what}.")
DM_REMINDER_LINK = N_("⏳ Reminder: it's still your turn in {game} ({where}): {what}. The table: {link}")
TURN_PING = N_("➡️ {player}, it's your turn in {game}: {what}.")
TURN_PING_LINK = N_("➡️ {player}, it's your turn in {game}: {what}. The table: {link}")
EARLIER_EVENTS = NP_(
    "… and {n} earlier move: **History** tells every move.", "… and {n} earlier moves: **History** tells every move."
)
DMS_CLOSED_PRIVATE = N_(
    "📪 I could not send you a direct message about your turn: your direct messages are closed to me, so I "
    "pinged you in the game's channel instead. `/settings notify` changes how you are told."
)
LIMIT_HOSTED = NP_(
    "You already host {n} open table in this server (the limit is {limit}): start or cancel one first "
    "(`/game mine` lists them).",
    "You already host {n} open tables in this server (the limit is {limit}): start or cancel one first "
    "(`/game mine` lists them).",
)
LIMIT_PLAYING = NP_(
    "You already sit at {n} game in this server (the limit is {limit}): finish one first (`/game mine` lists them).",
    "You already sit at {n} games in this server (the limit is {limit}): finish one first (`/game mine` lists them).",
)

# -- looking (cogs/look.py) --------------------------------------------------------------------------------------
RULES_KINGDOMINO = N_(
    "**Kingdomino in short.** Each round, in the order of the kings on the current line (lowest number first), "
    "you place the domino your king stands on, then move your king to a free domino of the next line (that sets "
    "next round's order). A domino must touch your castle or a square of the same terrain, and your kingdom must "
    "fit in 5x5 (7x7 in Mighty Duel). If no placement is possible the domino is discarded. Score: for each "
    "territory, squares x crowns. Ties: largest territory, then most crowns."
)
RULES_QUEENDOMINO = N_(
    "**Queendomino in short.** Kingdomino's turn (place, then claim) with three optional steps between: "
    "**tax** (send 1-2 knights onto the domino just placed: coins = squares of their territory), **build** (pay a "
    "slot's cost to put a building on a free town square; the queen's host pays 1 less), **dragon** (1 coin: burn "
    "a building of the board, once a round, never for the queen's host). Most towers (ties included) takes the "
    "queen, worth a crown on your largest territory. Score: territories, buildings, 1 point per 3 coins. Ties: "
    "largest territory, then leftover coins."
)
RULES_ROYAL_WEDDING = N_(
    "**Royal Wedding**: both boxes, lines alternate Queendomino then Kingdomino. 3-4 players build 7x7; 5-7 "
    "players 5x5 with lines of 8; teams of two (6 or 8 players) share a 7x7 kingdom, coins and knights."
)
NOT_STARTED_LOOK = N_("The game has not started yet: nothing to look at but the lobby.")
TABLE_NOW = N_("The table now.")
NOT_A_PLAYER = N_("That person is not playing in this game.")
NOT_PLAYING_LOOK = N_("You are not playing in this game: look at a player's kingdom with `/look kingdom player:@name`.")
KINGDOM_TITLE = NP_("**{owners}**'s kingdom ({n} point):", "**{owners}**'s kingdom ({n} points):")
SCORES_SO_FAR_TITLE = N_("**Scores so far**")
LAST_MOVES = N_("**Last moves**")
NO_MOVE_YET = N_("No move yet.")
# -- branch undo: the history in pages, from the newest move ------------------------------------------------------
HISTORY_HEAD = N_("**Moves {first}-{last} of {total}** (page {page} of {pages}; page 1 has the newest moves)")
BUTTON_OLDER = N_("Older moves")
BUTTON_NEWER = N_("Newer moves")
UNKNOWN_VIEW = N_("Unknown view {view}.")
# -- branch review (issue #31): the post-game review, in the channel and with `/look review` ------------------------
# A move in words, in the review's lines and pictures ({domino}: its number; {cell}: like C4; {direction}: a
# DIRECTIONS word; {building}: its name).
REVIEW_PLACE = N_("domino {domino} on {cell}, {direction}")
REVIEW_CLAIM = N_("claim domino {domino}")
REVIEW_TAX = NP_("a knight on {cells}", "knights on {cells}")
REVIEW_BUILD = N_("build {building} on {cell}")
REVIEW_DRAGON = N_("the dragon burns {building}")
REVIEW_SKIP = {"tax": N_("no tax"), "build": N_("no building"), "dragon": N_("no dragon")}
REVIEW_ROUND = N_("Round {round}")
REVIEW_SETUP = N_("Set-up")  # the first claims, before round 1
REVIEW_POINTS = N_("{points} points")  # {points}: always with one decimal, like 3.2 or 1.0: the form for a decimal
REVIEW_TITLE = N_(
    "🔎 **The review**: for each player, the decisions that cost most, beside the move the hard computer player "
    "would have made (points: the average difference in the final score over the same sampled endings)."
)
REVIEW_PLAYER = N_("**{player}**:")
REVIEW_LINE = N_("{when}: {played}; better: {better} (+{points} on average)")  # {when}: REVIEW_ROUND or REVIEW_SETUP
REVIEW_CLEAN = N_("**{player}**: no decision cost a point on average. Well played!")
REVIEW_MORE = N_("Your review: `/look review` (only you see it).")
REVIEW_YOURS_TITLE = N_(
    "🔎 **Your review**: the decisions that cost you most, beside the move the hard computer player would have made (points: the average difference in your final score over the same sampled endings)."
)
REVIEW_NOT_OVER = N_("The review is made when the game is over: this game is still being played.")
REVIEW_NOT_YOURS = N_("Only the people who played this game get its review, and you did not play in it.")
REVIEW_WORKING = N_(
    "The review of this game is still being worked out (it takes a few minutes of thinking, after every other "
    "game's moves). It will be posted in the channel; ask again then."
)
REVIEW_NOT_MADE = N_("The review of this game could not be made; it has been logged.")
PIC_REVIEW_HEAD = N_("the decisions that cost most")
PIC_REVIEW_NONE = N_("No decision cost a point on average. Well played!")
PIC_REVIEW_ITEM = N_("{number}. {when}")  # {when}: REVIEW_ROUND or REVIEW_SETUP
PIC_REVIEW_COST = N_("−{points} on average")
PIC_REVIEW_YOURS = N_("Your move")
PIC_REVIEW_BETTER = N_("Better (hard)")

STATS_PLAYER_TITLE = N_("**{name}** in this server")
STATS_SERVER_TITLE = N_("**This server's players**")
STATS_LINE = N_("{game}: {played} played, {wins} won, average {average}, best {best}")
STATS_SERVER_LINE = N_("{player} — {game}: {played} played, {wins} won, average {average}, best {best}")
STATS_PER_SERVER = N_("Statistics are kept per server: use this command in a server.")
NO_FINISHED_GAME = N_("No finished game yet.")

KINGDOM_HEAD = NP_(
    "**{owners}**'s kingdom ({n} point). The grid in text: `/look kingdom text:True`.",
    "**{owners}**'s kingdom ({n} points). The grid in text: `/look kingdom text:True`.",
)
TABLE_NOT_DRAWN = N_("The table could not be drawn just now. {alt}")
PICTURE_NOT_MADE = N_("That picture could not be made just now; it has been logged. Try again later.")
REPLAY_CAPTION = N_("The game so far, turn by turn.")
CHART_CAPTION = N_("Every kingdom's score, round by round.")
# branch pictures (issue #26): a look refused while too many pictures are being drawn for this member or server
PICTURES_BUSY = N_("I am drawing too many pictures just now; try again in a minute.")
LEADERBOARD_TITLE = N_("**{game} leaderboard** (OpenSkill rating, μ − 3σ; recomputed from every result)")
LEADERBOARD_LINE = NP_(
    "{rank}. {player} — {rating} ({n} game, {wins} won)", "{rank}. {player} — {rating} ({n} games, {wins} won)"
)

# -- /game mine and the games elsewhere (cogs/mine.py, cogs/lobby.py) ------------------------------------------
# {channel} is the channel's mention; {link} is empty or " — " and the table's address.
MINE_TITLE = N_("**Your games in this server**")
MINE_ELSEWHERE = N_("There is no game in this channel. Your games in this server:")
MINE_NONE = N_("You have no game in this server: start one with `/game new`.")
MINE_PAGE = N_("Page {page} of {pages}: `/game mine page:{next}` for more.")
MINE_WAITING = N_("**{game}** in {channel}: a table waiting to start{link}")
MINE_UNREADABLE = N_("**{game}** in {channel}: cannot be read (the host can close it with `/game cancel`)")
MINE_YOUR_TURN_FIRST_LINE = N_("➡️ **{game}** in {channel}, choosing the first line: **your turn**{link}")
MINE_YOUR_TURN_ROUND = N_("➡️ **{game}** in {channel}, round {round}/{rounds}: **your turn**{link}")
MINE_THEIR_TURN_FIRST_LINE = N_("**{game}** in {channel}, choosing the first line: it's {name}'s turn{link}")
MINE_THEIR_TURN_ROUND = N_("**{game}** in {channel}, round {round}/{rounds}: it's {name}'s turn{link}")
UNREADABLE_ONLY_HOST = N_("Only the host or a member with Manage Channels can close this game that cannot be read.")
UNREADABLE_CLOSED = N_("Game #{game_id} could not be read; it is closed and the channel is free for a new game.")

# -- /settings (cogs/settings.py) --------------------------------------------------------------------------------
NOTIFY_NO_QUIET = {
    "channel": N_("You are told it is your turn by a mention in the game's channel; no quiet hours."),
    "dm": N_("You are told it is your turn by a direct message with the link and the button; no quiet hours."),
    "both": N_("You are told it is your turn by both a mention and a direct message; no quiet hours."),
}
NOTIFY_QUIET = {
    "channel": N_(
        "You are told it is your turn by a mention in the game's channel; quiet hours {start}-{end} ({zone}): "
        "reminders wait."
    ),
    "dm": N_(
        "You are told it is your turn by a direct message with the link and the button; quiet hours {start}-{end} "
        "({zone}): reminders wait."
    ),
    "both": N_(
        "You are told it is your turn by both a mention and a direct message; quiet hours {start}-{end} ({zone}): "
        "reminders wait."
    ),
}
NOT_A_TIME = N_("{typed} is not a time of day: write it like 22:30 or 7:00.")
PICK_HOW = N_("Pick how from the list: channel, dm or both.")
QUIET_BOTH_ENDS = N_("Give both ends of your quiet hours: quiet_from and quiet_to (like 22:30 and 07:00).")
QUIET_DIFFER = N_("Quiet hours need a start and an end that differ.")
UNKNOWN_TIMEZONE = N_(
    "{zone} is not a time zone I know. Time zones are written like Europe/Bucharest, Europe/Madrid or "
    "America/Mexico_City."
)
SERVER_SETTINGS_IN_SERVER = N_("Server settings are set in a server.")
ONLY_MANAGE_SERVER = N_("Only members with Manage Server change this server's limits.")
SERVER_LIMIT_RANGES = N_(
    "Open tables per member go from 1 to 50, games per member from 1 to 200, and the hours before a table nobody "
    "starts closes from 0.5 to 720."
)

# -- /play typed input (cogs/play.py) ----------------------------------------------------------------------------
BAD_CELL = N_("Cannot read cell {typed}: write a column letter and a row number, like E5.")
UNREADABLE_TYPED = N_("I could not read what you typed: pick one of the suggestions the command offers.")

# -- pictures (render/*.py): short, they must fit their boxes ----------------------------------------------------
PIC_PREVIEW = N_("Preview: domino {domino} on {cells}")
PIC_QUEEN = N_("Queen {points}")
PIC_BUILDINGS = N_("Buildings {points}")
PIC_COINS = N_("Coins {points}")
PIC_MIDDLE = N_("Middle {points}")
PIC_HARMONY = N_("Harmony {points}")
PIC_NO_POINTS = N_("No points yet: a territory scores its squares times its crowns")
PIC_STILL_TO_COME = N_("Still to come")
PIC_STILL_TO_COME_NOTE = N_("Squares and crowns on the dominoes not revealed yet")
PIC_COLUMNS = {
    "queen": N_("Queen"),
    "buildings": N_("Buildings"),
    "coins": N_("Coins"),
    "middle_kingdom": N_("Middle"),
    "harmony": N_("Harmony"),
    "largest": N_("Largest"),
    "coins_left": N_("Coins left"),
    "crowns": N_("Crowns"),
    "total": N_("Total"),
    "player": N_("Player"),
    "team": N_("Team"),
}
PIC_GAME_N = N_("Game {number}")
PIC_FINAL_SCORES = N_("Final scores")
PIC_SCORES_SO_FAR = N_("Scores so far")
PIC_GAME_DETAIL = N_("Game {number} in detail")
PIC_BUILDINGS_DETAIL = N_("Buildings: {details}")
PIC_TIE_BROKEN = NP_(
    "Tie on {n} point with {others}: broken by {how}.", "Tie on {n} points with {others}: broken by {how}."
)
PIC_TIE_SHARED = N_("Tied on points, largest territory and the next tie-break: the win is shared.")
PIC_GAME_OVER_ONE = NP_("Game over: {names} wins with {n} point", "Game over: {names} wins with {n} points")
PIC_GAME_OVER_MANY = NP_("Game over: {names} win with {n} point", "Game over: {names} win with {n} points")
PIC_FINAL = N_("Final")
PIC_SETUP_FIRST_LINE = N_("Set-up: first line")
PIC_ROUND = N_("Round {round} of {rounds}")
PIC_ROUND_LAST = N_("Round {round} of {rounds} · last round")
PIC_FIRST_LINE_CLAIM = N_("First line: claim a domino")
PIC_NEXT_LINE = N_("Next line")
PIC_NEXT_LINE_NOTE = N_("Drawn once every king is placed")
PIC_THIS_ROUND = N_("This round ({round})")
TIEBREAKS = {  # engine Result.tiebreak -> the words after "broken by"
    "largest territory": N_("the largest territory"),
    "most crowns": N_("the most crowns"),
    "leftover coins": N_("the most coins left over"),
}
PIC_STATUS = {  # the table picture's status line: whole sentences per decision
    "first_claim": N_("{name} chooses a domino of the first line"),
    "place": N_("{name} places domino {domino}"),
    "tax": N_("{name} may send knights to collect tax"),
    "build": N_("{name} may build"),
    "dragon": N_("{name} may bribe the dragon"),
    "claim": N_("{name} chooses a domino of the next line"),
}
PIC_GAME_OVER_TIEBREAK = NP_(
    "Game over: {names} with {n} point, by the tie-break on {tiebreak}",
    "Game over: {names} with {n} points, by the tie-break on {tiebreak}",
)
PIC_PLAYERS = NP_("{n} player", "{n} players")
PIC_PLAYERS_TEAMS = NP_("{players} players in {n} team", "{players} players in {n} teams")
PIC_DEAL = N_("game {deal} of {deals}")
PIC_NO_DOMINOES_LEFT = N_("No dominoes left")
PIC_NEXT_ROUND = N_("Next round")
PIC_NEXT_ROUND_N = N_("Next round ({round})")
PIC_LAST_ROUND_NO_NEXT = N_("Last round: no next line")
PIC_TAX = N_("tax")
PIC_POINTS_SHORT = NP_("{n} pt", "{n} pts")
PIC_POINTS_PER = NP_("{n} pt per", "{n} pts per")
PIC_AREA = N_("area")
PIC_STACK = NP_("{n} building in the stack", "{n} buildings in the stack")
PIC_DRAGON_CAVE = N_("Dragon in its cave: 1 coin burns a building")
PIC_DRAGON_FLEW = N_("The dragon flew this round (slot {slot})")
PIC_QUEEN_NO_HOST = N_("Queen: no host yet (most towers)")
PIC_QUEEN_HOST = N_("Queen hosted by {host}: builds for 1 less")
PIC_CAPTIONS = {
    "reserve": N_("reserve"),
    "host": N_("host"),
    "coins": N_("coins"),
    "in reserve": N_("in reserve"),
    "towers": N_("towers"),
    "queen's host": N_("queen's host"),
    "crowns": N_("crowns"),
    "largest area": N_("largest area"),
}
PIC_MATCH = N_("match {points}")
PIC_ROUND_OF = N_("round {round} of {rounds}")
PIC_LEADS = NP_("{name} leads with {n} point; the game goes on.", "{name} leads with {n} points; the game goes on.")
PIC_WINS_WITH = NP_("{name} wins with {n} point.", "{name} wins with {n} points.")
PIC_TEAM_WINS_WITH = NP_("{name} win with {n} point.", "{name} win with {n} points.")
PIC_SHARE_WIN = NP_("{names} share the win with {n} point.", "{names} share the win with {n} points.")

# -- added to the cogs and pictures since the first extraction (main after the engine and lobby merges) --------
TIEBREAK_LINE = N_("Tie-break: {tiebreak}.")
LEFT_NEW_HOST = N_("You left the table; {host} is the host now.")
LEFT_CLOSED = N_("You left the table; nobody else was seated, so it is closed.")
NEEDS_A_PERSON = N_("A table needs at least one person: join it, or cancel it.")
SEAT_FIRST = N_("Take a seat first (**Join**): nobody starts a table they are not at.")
PICK_MENU_CHOICE = N_("Pick one of the menu's choices: easy, medium, hard or remove.")
REMATCH_USED = N_("This rematch button was already used: start a new game with `/game new`.")
REMATCH_OTHER_GAME = N_("This channel has another game now: the rematch button no longer works.")
REMATCH_SEATED = N_("You already have a seat at the rematch.")
REMATCH_OPEN = N_("🔁 Rematch of game #{game_id}! Its players take their seat with **Rematch** or **Join**.")
CHANNEL_GONE = N_("This channel no longer exists: its game has ended.")
FINAL_SCORES_TITLE = N_("**Final scores**")
UNSEEN_OF = NP_("{n} of {total} domino not seen yet.", "{n} of {total} dominoes not seen yet.")
UNSEEN_OF_OVER = NP_(
    "{n} of {total} domino not seen yet (the game is over).",
    "{n} of {total} dominoes not seen yet (the game is over).",
)
TYPED_TOO_LONG = N_(
    "{typed} is not something I can play ({length} characters): pick one of the suggestions the command offers."
)
PIC_FINAL_RANKING = N_("Final ranking")
PIC_BUILDERS_BOARD = N_("Builders' board")
PIC_SOLD = N_("sold this round")
PIC_BURNED = N_("burned")
PIC_HOSTS_QUEEN = N_("hosts the queen")
PIC_DELTA = NP_("{n} point", "{n} points")  # signed: "+3 points", "-1 point" (n with its sign)
PIC_NO_POINTS_DELTA = N_("no points")
PIC_PLACED = N_("placed")  # a domino of the current line already placed
PIC_FREE = N_("free")  # a domino no king has chosen yet
PIC_PTS = N_("pts")  # after a kingdom's score
PIC_TO_PLAY = N_("TO PLAY")
PIC_TEAMS = NP_("{n} team", "{n} teams")  # the score sheet's subtitle in a team game
PIC_IN_DETAIL = N_(
    "in detail:"
)  # under "Game 2" on a Dynasty's score sheet  # the tag on the kingdom of the player to act

# -- branch render: the table's legends (render/table.py) ----------------------------------------------------------
PIC_BOX_KINGDOMINO = N_("a domino from the Kingdomino box")  # Royal Wedding: beside a K, as in K14
PIC_BOX_QUEENDOMINO = N_("a domino from the Queendomino box")  # Royal Wedding: beside a Q, as in Q14
PIC_FIRST_SQUARE_SPOTS = NP_(  # the large kingdom while a domino is placed
    "{n} marked cell can take the first square: pick it, then a direction",
    "{n} marked cells can take the first square: pick one, then a direction",
)
PIC_BUILD_SPOTS = NP_(  # the large kingdom at the build step
    "{n} marked town square can take the building",
    "{n} marked town squares can take the building: pick one",
)
PIC_SCORE_SO_FAR = NP_("{n} point so far: {parts}", "{n} points so far: {parts}")  # parts: "Mine 2 · Coins 2"
PIC_SCORE_FINAL = NP_("{n} point: {parts}", "{n} points: {parts}")
PIC_CROWNS_CAPTION = NP_("crown", "crowns")  # after a kingdom's number of crowns on the table: "1 crown", "2 crowns"

# -- the turn panel's words since the switch (cogs/views.py): alt texts, undo ----------------------------------
PREVIEW_ALT = N_("Preview of your kingdom with domino {domino} placed from {cell}, second square {direction}: {gain}.")
FREE_FIRST_LINE_ALT = N_("The free dominoes of the first line: {free}.")
FREE_NEXT_LINE_ALT = N_("The free dominoes of the next line: {free}.")
PLACEMENT_ALT = N_("Your kingdom with domino {domino} on {cell}; the second square can go {directions}.")
LEGAL_CELLS_ALT = N_("Legal cells: {cells}")
FREE_TOWN_ALT = N_("Free town squares: {cells}")
TAX_ALT = N_("The domino just placed and the coins each knight would collect: {choices}")
DRAGON_ALT = N_("The builders' board: what each building costs and what burning it takes from whom.")
BUTTON_UNDO = N_("Undo my last move")
TAKEN_BACK = N_("Taken back.")

# -- the web board (web/, branch web) ----------------------------------------------------------------------------
# Sentences of the board's server and of its page (web/strings.py hands the page its words in the reader's language).
YOUR_TURN_WEB = N_("It's your turn: {what}.")
WEB_TOO_FAST = N_("Too many requests at once: wait a moment and try again.")
WEB_OTHER_SITE = N_("This request came from another site: open the board from its own address.")
WEB_JSON_ONLY = N_("The board only accepts JSON requests (Content-Type: application/json).")
WEB_TOO_LARGE = N_("That request is too large: at most {limit} bytes.")
WEB_BAD_JSON = N_('That request is not a JSON object: send an object with "version" and "action".')
WEB_BAD_LANGUAGE = N_("Unknown language: choose one of {languages}.")
WEB_NO_GAME = N_("There is no such game.")
WEB_TOO_MANY_BOARDS = N_("Too many boards are open from this address: close some and try again.")
WEB_NEED_VERSION = N_('Say which version of the game you saw: a whole number in "version".')
WEB_BAD_ACTION = N_(
    "That action is not one the game knows: send one of the actions the board lists for your turn "
    "(claim, place, tax, build, dragon or skip)."
)
WEB_DISCORD_TABLES = N_("Games are started in Discord here: use /game new in a channel.")
WEB_TOO_MANY_GAMES = N_("Too many games are open ({limit}): finish or leave some first.")
WEB_PERSON_NAME = N_("Player {number}")
WEB_BAD_FIELD = N_("The table's {field} is not possible: choose among {allowed}.")
WEB_ONLY_HOST_START = N_("Only the person who opened the table can start the game.")
WEB_LINK_EXPIRED = N_("This link has expired or is not valid: ask for the board again in Discord.")
WEB_NOT_SEATED = N_("You have no seat at this table: you can watch.")
WEB_APP_TITLE = N_("Kingdomino board")
WEB_NEW_GAME = N_("New game")
WEB_GAME = N_("Game")
WEB_PLAYERS = N_("Players")
WEB_COMPUTERS = N_("Computer players")
WEB_LEVEL = N_("Computer level")
WEB_VARIANTS = N_("Variants")
WEB_TEAMS = N_("Teams of two")
WEB_LANGUAGE = N_("Language")
WEB_CREATE = N_("Open the table")
WEB_YOUR_GAMES = N_("Your games and open tables")
WEB_NO_GAMES = N_("No game yet: open a table above.")
WEB_TAKE_SEAT = N_("Take a seat")
WEB_START = N_("Start the game")
WEB_WAITING = N_("Waiting for players: {free} of {size} seats free.")
WEB_ROTATE = N_("Rotate")
WEB_CONFIRM = N_("Confirm")
WEB_CANCEL = N_("Cancel")
WEB_UNDO = N_("Undo")
WEB_SKIP = N_("Skip")
WEB_ROUND = N_("Round {round} of {rounds}")
WEB_FIRST_LINE = N_("First line")
WEB_CURRENT_LINE = N_("This round's line")
WEB_NEXT_LINE = N_("Next line")
WEB_BUILDERS = N_("Builders' board")
WEB_COINS = N_("Coins")
WEB_KNIGHTS = N_("Knights")
WEB_TOWERS = N_("Towers")
WEB_SCORE = N_("Score")
WEB_QUEEN = N_("The queen is here")
WEB_DRAGON = N_("Dragon")
WEB_CASTLE = N_("Castle")
WEB_EMPTY = N_("empty")
WEB_YOU = N_("you")
WEB_COMPUTER = N_("computer")
WEB_LOG = N_("What happened")
WEB_FINAL = N_("Final scores")
WEB_BACK = N_("All games")
WEB_ZOOM_IN = N_("Zoom in")
WEB_ZOOM_OUT = N_("Zoom out")
WEB_LIVE = N_("Live")
WEB_RECONNECTING = N_("Reconnecting…")
WEB_WATCHING = N_("You are watching.")
WEB_PLACE_TIP = N_("Tap a marked square for the domino's first square, rotate, then confirm.")
WEB_CLAIM_TIP = N_("Tap a free domino of the next line to claim it.")
WEB_FIRST_CLAIM_TIP = N_("Tap a free domino of the first line to claim it.")
WEB_TAX_TIP = N_("Tap a square of the domino you just placed to send a knight there.")
WEB_BUILD_TIP = N_("Tap a building you can afford, then a free town square.")
WEB_DRAGON_TIP = N_("Tap a building for the dragon to burn.")
WEB_BOTH_SQUARES = N_("Both squares: {coins}")
WEB_PLACE_AT = N_("First square on {cell}: {gain}")
WEB_PREVIEW = N_("Domino {domino}: first square on {cell}, second square {direction}: {gain}")
WEB_CLAIM = N_("Claim domino {domino}")
WEB_BUILD = N_("Build {building} for {coins}")
WEB_BURN = N_("Burn {building}")
WEB_COST = N_("cost {coins}")
WEB_CELL = N_("{cell}: {terrain}, crowns: {crowns}")
WEB_KINGDOM_OF = N_("Kingdom of {name}")
WEB_SEAT_FREE = N_("free seat")
WEB_VARIANT_NAMES = {"three-player-four-dominoes": N_("Three players with lines of four")}

# -- branch activity: the board as a Discord Activity, and its links (cogs/board.py, web/app.py) ----------------
BUTTON_BOARD = N_("Open the board")
BOARD_LINK = N_(
    "Your own link to the board of this game: it works for {minutes} minutes and acts for you, so keep it to yourself."
)
BOARD_UNAVAILABLE = N_(
    "The live board is not set up for this server (no Discord Activity and no public address): the pictures and "
    "buttons here do everything the board does."
)
BOARD_ENTRY_POINT = N_("Open the live board of this channel's game")
WEB_ACTIVITY_CONNECTING = N_("Connecting to Discord…")
WEB_ACTIVITY_FAILED = N_("Discord did not let the board in ({error}): close the board and open it again.")
WEB_ACTIVITY_OFF = N_("This board is not set up as a Discord Activity: use the pictures and buttons in the channel.")
WEB_ACTIVITY_REFUSED = N_("Discord did not confirm who you are: close the board and open it again.")
WEB_ACTIVITY_ELSEWHERE = N_(
    "Discord does not show this board in that channel: open it from the table of the channel you are in."
)
WEB_ACTIVITY_NO_GAME = N_("There is no game in this channel yet: start one with /game new, then open the board.")
WEB_NOT_YOURS = N_("This board is not open to you: open it from the game's table in Discord.")
WEB_LINK_GAME_OVER = N_("This game is over, so its links no longer open it: the final table is in Discord.")

# -- the post-game review on the board (web/review.py; its words and pictures are Discord's: REVIEW_…) ------------
WEB_REVIEW = N_("Review")  # the heading of the board's section with the post-game review
WEB_REVIEW_WORKING = N_(
    "The review is being worked out: a few minutes of thinking, after every game's moves. It shows here when it is "
    "ready."
)
WEB_REVIEW_DRAWING = N_("The review is ready; its pictures are being drawn.")
WEB_REVIEW_READY = N_("The review of the game is ready.")
WEB_REVIEW_NOT_YOURS = N_("A player sees their own review only: this one is another player's.")
WEB_REVIEW_NO_PICTURE = N_("There is no such review picture.")

# -- the engine's events and refusals (engine/game.py, engine/kingdom.py, engine/config.py) -------------------
# Keyed by the engine's `code`; placeholders are the engine's `params` names (engine/README.md, "Codes for
# translations"), except: `{n}` is the number a plural turns on (named in the comment), player ids become names,
# a building id its term, a direction its DIRECTIONS word, and lists are joined ("E4 and F4", "K3, K7").
EVENTS = {
    "claimed": N_("{player} chose domino {domino}."),
    "placed": N_("{player} placed domino {domino} on {cell}, second square {direction}."),
    # taxed: one knight (cells[0]) or two (cells[0], cells[1]); n = coins
    "taxed_one": NP_(
        "{player} sent a knight to {cell} and collected {n} coin.",
        "{player} sent a knight to {cell} and collected {n} coins.",
    ),
    "taxed_two": NP_(
        "{player} sent 2 knights to {cell} and {second} and collected {n} coin.",
        "{player} sent 2 knights to {cell} and {second} and collected {n} coins.",
    ),
    "built": NP_(  # n = cost
        "{player} built the {building} on {cell} for {n} coin.",
        "{player} built the {building} on {cell} for {n} coins.",
    ),
    "queen": NP_(  # n = towers
        "The queen moves to {player}'s kingdom ({n} tower).",
        "The queen moves to {player}'s kingdom ({n} towers).",
    ),
    "dragon": N_("{player} bribed the dragon, which burned the {building} (slot {slot})."),
    "discarded": N_("{player} could not place domino {domino}: it is discarded."),
    "unclaimed": NP_(  # n = how many dominoes
        "Nobody chose {dominoes}: it is discarded.", "Nobody chose {dominoes}: they are discarded."
    ),
    "round_end": N_("Round {round} is over."),
    "deal_end": N_("Game {finished} of the Dynasty is over; game {next} begins."),
    # game_over: one winner or several, with or without a tie-break (TIEBREAKS words)
    "game_over_one": N_("The game is over: {winners} wins."),
    "game_over_many": N_("The game is over: {winners} win."),
    "game_over_one_tiebreak": N_("The game is over: {winners} wins (tie-break: {tiebreak})."),
    "game_over_many_tiebreak": N_("The game is over: {winners} win (tie-break: {tiebreak})."),
}
REFUSALS = {
    "game_over": N_("The game is over: no more moves."),
    "game_not_over": N_("The game is not over yet."),
    "not_your_turn": N_("It is not your turn."),
    # wrong_phase, must_place_first, cannot_skip: the step at hand, as DECISION_YOU words it (phase -> {what})
    "wrong_phase": N_("You must {what} first."),
    "must_place_first": N_("You must place domino {domino} first."),
    "cannot_skip": N_("That step cannot be skipped: you must {what}."),
    "domino_taken": N_("That domino is already taken: choose a free one ({free})."),
    "domino_not_in_line": N_("That domino is not in the line: choose a free one ({free})."),
    "bad_direction": N_("Unknown direction {direction}: use up, right, down or left."),
    "outside_table": N_("{cell} is outside the table."),
    "outside_table_unnamed": N_("That cell is outside the table."),  # outside_table with cell null
    "cell_is_castle": N_("{cell} is the castle: both squares need empty cells."),
    "cell_taken": N_("{cell} is already taken: both squares need empty cells."),
    "too_tall": N_("That would make the kingdom {cells} cells tall: it must fit in {size}x{size}."),
    "too_wide": N_("That would make the kingdom {cells} cells wide: it must fit in {size}x{size}."),
    "not_connected": N_("That spot is not connected to the castle or to a square of the same terrain."),
    "tax_knight_count": N_("Send one or two knights, at most one on each square of the domino."),
    "tax_cells": N_("Knights go on the domino just placed: {cells}."),
    "knights_per_round": N_(
        "At most {limit} knights a round: you already sent {sent} this round, so you can send {left} more, not "
        "{wanted}."
    ),
    "knights_reserve": NP_(  # n = reserve
        "You have {n} knight in reserve, not {wanted}.", "You have {n} knights in reserve, not {wanted}."
    ),
    "empty_slot": N_("Slot {slot} of the builders' board holds no building: choose another."),
    "no_free_town": N_("You have no free town square to build on."),
    "not_free_town": N_("{cell} is not a free town square: build on {free}."),
    "not_enough_coins": NP_(
        "You need {n} coin, you have {coins}.", "You need {n} coins, you have {coins}."
    ),  # n = cost
    "dragon_flown": N_("The dragon has already flown this round: it is back in its cave at the end of the round."),
    "dragon_queen_host": N_("The queen's host may not bribe the dragon."),
    "dragon_coins": N_("The dragon costs 1 coin; you have {coins}."),
    "dragon_no_building": N_("There is no building on the builders' board to burn."),
}
CONFIG_REFUSALS = {  # ConfigError codes, shown after "That table is not possible:"
    "unknown_game": N_("Unknown game {game}."),
    "player_count": N_("{game} takes {low}-{high} players, not {players}."),
    "duplicate_player": N_("Each player may take only one seat."),
    "unknown_variant": N_("Unknown variant {variant}."),
    "mighty_duel_players": N_("Mighty Duel is a Kingdomino variant for exactly 2 players."),
    "three_player_rule": N_("The rule of lines of 4 for 3 players is for Kingdomino with exactly 3 players."),
    "eight_need_teams": N_("Royal Wedding with 8 players is played in teams of 2 (individual games take 3-7)."),
    "teams_game": N_("Teams are played only in Royal Wedding (6 or 8 players)."),
    "teams_player_count": N_("Teams need 6 or 8 players, not {players}."),
    "team_size": N_("Each team has exactly 2 players."),
    "team_members": N_("Every player must be in exactly one team."),
}

# -- where each short text goes, for the length checks (Discord's limits) ---------------------------------------
BUTTON_LABELS = [  # 80 characters
    BUTTON_JOIN,
    BUTTON_LEAVE,
    BUTTON_START,
    BUTTON_CANCEL,
    BUTTON_REMATCH,
    BUTTON_CONFIRM,
    BUTTON_BACK,
    BUTTON_TAKE_TURN,
    BUTTON_BOARD,
    BUTTON_UNDO,
    DONE_CLAIM,
    DONE_END,
    BUILD_ON,
    SPOT_LABEL,
    CONFIRM_TAKE,
    CONFIRM_END,
    CONFIRM_THEN_STEPS,
    TAKE_DOMINO,
    DIRECTION_LABEL,
    *LOOKS.values(),
]
BUTTON_PLURALS = [KNIGHT_ON_CELL, KNIGHTS_ON_BOTH]
SELECT_OPTIONS = [ADD_COMPUTER, REMOVE_COMPUTER, BURN_OPTION, BURN_SLOT, THEN_DIRECTIONS, SPOT_OPTION]  # 100 characters
SELECT_PLURALS = [BUILD_OPTION]
SELECT_PLACEHOLDERS = [  # 150 characters
    COMPUTER_PLACEHOLDER,
    SWAP_PLACEHOLDER,
    CELL_PLACEHOLDER,
    SPOT_PLACEHOLDER,
    BUILD_PLACEHOLDER,
    DRAGON_PLACEHOLDER,
]
AUTOCOMPLETE_CHOICES = [CELL_THEN, *DIRECTIONS.values()]  # 100 characters
AUTOCOMPLETE_PLURALS = [TAX_CHOICE, BUILD_CHOICE]

# -- the game service (cogs/service.py) --------------------------------------------------------------------------
UNREADABLE_HERE = N_(
    "The game in this channel cannot be read ({error}). The host or a member with Manage Channels can close it "
    "with `/game cancel`; that frees the channel for a new game. Other games are not affected."
)
UNDO_NOT_PLAYED = N_("This game is not being played any more: nothing can be taken back.")
UNDO_SOMEONE_ACTED = N_("{name} has acted since your last move, so it can no longer be taken back.")
UNDO_NOTHING = N_("You have no move to take back.")
UNDO_PUBLIC = N_("↩️ {name} took back their last move.")
# -- branch undo: undo never shows what was hidden; moves by the deadline; the computers' wait --------------------
UNDO_REVEALED = N_(
    "That can no longer be taken back: new dominoes or buildings came into view after it, and nobody may choose "
    "again knowing them."
)
UNDO_DEADLINE = N_("The turn deadline played for {name} since your last move, so it can no longer be taken back.")
SERVER_ONLY = N_("This command is about a server's games: use it in a channel of the server.")
NOT_A_CHOICE = N_("{value} is not a choice of {option}: pick one from the list ({choices}).")
BUTTON_PLAY_ON = N_("Computers, play now")
COMPUTERS_WAIT = N_("The computer players answer in {seconds} s: until then you can still take your move back.")
LOBBY_EXPIRED = N_("⌛ Nobody started this table within {hours} h, so it is closed.")
TABLE_AGAIN = N_("🔁 The table again, as it stands now.")

# -- the text grid (render/alt.py: an alt text's compact grid, `/look kingdom text:True`) -------------------------
# A letter per terrain, different from the other six in each language (English W F L G S M T meant nothing in
# Czech, where les and louka both start with L), and the castle's two letters; translate them with the context.
GRID_LETTERS = {
    "wheat": N_("W", context="grid:wheat"),
    "forest": N_("F", context="grid:forest"),
    "lake": N_("L", context="grid:lake"),
    "grassland": N_("G", context="grid:grassland"),
    "swamp": N_("S", context="grid:swamp"),
    "mine": N_("M", context="grid:mine"),
    "town": N_("T", context="grid:town"),
}
GRID_CASTLE = N_("CC", context="grid:castle")
