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
# Translators: A count of coins in running text (the web board's tax choices, alt texts).
COINS = NP_("{n} coin", "{n} coins")
# Translators: A count of knights in running text.
KNIGHTS = NP_("{n} knight", "{n} knights")
# Translators: A count of towers in running text.
TOWERS = NP_("{n} tower", "{n} towers")
# Translators: A count of points in running text, like '3 points', '-2 points' ({n} may carry a minus sign; the form
# follows the number without it).
POINTS = NP_("{n} point", "{n} points")
# Translators: A gain in points shown before a placement is confirmed: '+3 points'.
POINTS_SIGNED = NP_("+{n} point", "+{n} points")  # a gain shown before placing
# Translators: /look remaining (private): how many dominoes are still face down.
DOMINOES_UNSEEN = NP_("{n} domino not seen yet.", "{n} dominoes not seen yet.")

# -- names and small words (cogs/common.py) ------------------------------------------------------------------------
# Translators: The name given to a player whose Discord name cannot be used (empty or unreadable).
PLAYER = N_("Player")  # the name of a player with no usable name
# Translators: A computer player's name in a message, in bold, marked as a computer; {name}: its name, like 'Bot 1
# (hard)'.
COMPUTER_NAME = N_("**{name}** (computer)")
# Translators: The name of a computer player at the table: {number} is its seat's count (1, 2...), {level} its level
# word.
BOT_NAME = N_("Bot {number} ({level})")
# Translators: A computer player's level, after 'Bot 1' and in the lobby's menu: an adjective that agrees with your
# word for the computer player (Czech: hráč, masculine).
LEVELS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard"), "expert": N_("expert")}
# Translators: Discord's own name of a channel permission: use the name Discord's client shows in your language.
PERMISSIONS = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "attach_files": N_("Attach Files"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
}
# Translators: Joins the last two items of a list ('E4 and F4', 'Ann, Bob and Cy'): {first} is everything before the
# last item (already joined with commas), {second} the last item.
TWO_CELLS = N_("{first} and {second}")

# What the player to act must do: one whole sentence per case. The "you" forms are imperative clauses complete in
# themselves, filled into `{what}`: translations put `{what}` after a colon ("it's your turn: {what}"), never
# inside a clause ("you must {what}") where their language would need another form of the verb.
# Translators: What the player must do, filled into {what} of another sentence after a colon ('it's your turn: place
# domino 23'): an imperative clause, complete in itself, starting in lower case.
DECISION_YOU = {
    "first_claim": N_("choose a domino of the first line for your king"),
    "place": N_("place domino {domino}"),
    "tax": N_("send knights to collect tax, or skip"),
    "build": N_("build a building, or skip"),
    "dragon": N_("bribe the dragon to burn a building, or skip"),
    "claim": N_("choose a domino of the next line"),
}
# Translators: In the game's channel and the turn panel: whose turn it is and what they must do. {name}: the player's
# name (never declined).
DECISION_OTHER = {
    "first_claim": N_("It's {name}'s turn: they must choose a domino of the first line for their king."),
    "place": N_("It's {name}'s turn: they must place domino {domino}."),
    "tax": N_("It's {name}'s turn: they must decide on tax."),
    "build": N_("It's {name}'s turn: they must decide on building."),
    "dragon": N_("It's {name}'s turn: they must decide on the dragon."),
    "claim": N_("It's {name}'s turn: they must choose a domino of the next line."),
}

# Translators: In the game's channel, everyone sees it: whose turn it is when the domino is not named. {name}: the
# player's name.
DECISION_OTHER_PLACE = N_("It's {name}'s turn: they must place their domino.")  # when the domino is not named
# Translators: Filled into {what} ('it's your turn: place your domino'): an imperative clause starting in lower case.
DECISION_YOU_PLACE = N_("place your domino")  # "you must {what}" when the domino is not named

# Translators: In the game's channel, everyone sees it: the table message's score line. {scores}: 'Ann 12 · Bob 9'.
SCORES_LINE = N_("Scores: {scores}")
# Translators: In the game's channel, everyone sees it: a Dynasty's running totals over its games. {scores}: 'Ann 52 ·
# Bob 40'.
DYNASTY_TOTALS_LINE = N_("Dynasty totals: {scores}")
# Translators: In the game's channel, everyone sees it: one line per kingdom under the table (Queendomino rules).
# {coins}, {knights}, {towers}: plain numbers.
ECONOMY_LINE = N_("{kingdom}: coins {coins}, knights in reserve {knights}, towers {towers}")
# Translators: In the game's channel, everyone sees it: the line of the kingdom that has the queen (Queendomino
# rules). {coins}, {knights}, {towers}: plain numbers.
ECONOMY_LINE_QUEEN = N_("{kingdom}: coins {coins}, knights in reserve {knights}, towers {towers}, 👑 hosts the queen")
# Translators: /look scores (private): one kingdom's score. {total}: its score (a number); {detail}: its parts, like
# 'forest 6, coins 2'.
BREAKDOWN_LINE = N_("**{kingdom}**: {total} ({detail})")
# Translators: /look scores (private): a kingdom with no points yet, in place of its parts.
NOTHING_YET = N_("nothing yet")
# Translators: /look scores (private): a kingdom's score in each finished Dynasty game.
DYNASTY_SO_FAR = N_("{kingdom}, Dynasty games so far: {games}")
# Translators: /look scores (private): the name of a part of a score, followed by its points ('coins 2'). Lower case
# in running text.
SCORE_PARTS = {
    "queen": N_("queen"),
    "buildings": N_("buildings"),
    "coins": N_("coins"),
    "middle_kingdom": N_("Middle Kingdom"),
    "harmony": N_("Harmony"),
}  # the terrains use their terms

# -- admin -------------------------------------------------------------------------------------------------------
# Translators: A private reply, only the player who clicked or typed sees it (/admin sync, for the bot's owner).
ONLY_OWNER_SYNC = N_("Only the bot's owner can sync commands.")
# Translators: A private reply, only the player who clicked or typed sees it (/admin sync). DEV_GUILD_ID is a
# setting's name: keep it.
SYNC_WHERE = N_("Use this in a server, or set DEV_GUILD_ID.")
# Translators: A private reply, only the player who clicked or typed sees it (/admin sync): the commands were
# published to every server.
SYNCED_GLOBAL = NP_("Synced {n} command globally.", "Synced {n} commands globally.")
# Translators: A private reply, only the player who clicked or typed sees it (/admin sync): the commands were
# published to one server.
SYNCED_GUILD = NP_("Synced {n} command to guild {guild}.", "Synced {n} commands to guild {guild}.")

# -- the lobby (cogs/lobby.py) -----------------------------------------------------------------------------------
# Translators: The lobby message (in the channel): a chosen variant and what it does, after 'Variants:'.
VARIANT_OPTIONS = {
    "dynasty": N_("Dynasty: three games, the highest sum wins"),
    "middle-kingdom": N_("Middle Kingdom: +10 for a centred castle"),
    "harmony": N_("Harmony: +5 for no discarded domino"),
    "mighty-duel": N_("Mighty Duel: 2 players, 7x7, all dominoes"),
    "three-player-four-dominoes": N_("3 players with lines of 4 (BGA)"),
}
# Translators: The lobby message's first line, in the channel. {taken}: seats taken; {size}: seats at the table.
LOBBY_TITLE = N_("**{game}** — new table by {host} ({taken}/{size} seats taken)")
# Translators: The lobby message (Royal Wedding in teams): how teams are made.
LOBBY_TEAMS = N_("Teams of two share a kingdom; the host arranges the teams by swapping seats.")
# Translators: The lobby message: one team. {number}: 1, 2, 3 or 4.
LOBBY_TEAM = N_("Team {number}: {members}")
# Translators: The lobby message: an empty seat in a team, after '&'.
LOBBY_FREE_SEAT = N_("(free seat)")
# Translators: The lobby message: the chosen variants. {variants}: the VARIANT_OPTIONS phrases, joined with ';'.
LOBBY_VARIANTS = N_("Variants: {variants}")
# Translators: The lobby message: when turns are reminded. 'h' is hours.
LOBBY_REMINDER = N_("Turns: reminder after {hours} h.")
# Translators: The lobby message: when the computer plays for an absent player. 'h' is hours.
LOBBY_DEADLINE = N_("Turns: after {hours} h the computer plays for an absent player.")
# Translators: The lobby message: both the reminder and the deadline. 'h' is hours; {reminder}, {deadline}: numbers of
# hours.
LOBBY_REMINDER_DEADLINE = N_(
    "Turns: reminder after {reminder} h, after {deadline} h the computer plays for an absent player."
)
# Translators: The lobby message's last line while it is open. **Join** is the button's label (BUTTON_JOIN): use the
# same word.
LOBBY_OPEN = N_("Click **Join** to take a seat; the host starts the game.")
# Translators: The lobby message once the table was cancelled.
LOBBY_CANCELLED = N_("This table was cancelled.")
# Translators: The lobby message once the game started (the table picture follows below it).
LOBBY_STARTED = N_("The game has started: see the table below.")
# Translators: Button on the lobby message: take a seat at the table.
BUTTON_JOIN = N_("Join")
# Translators: Button on the lobby message: leave your seat before the game starts.
BUTTON_LEAVE = N_("Leave")
# Translators: Button on the lobby message: the host starts the game.
BUTTON_START = N_("Start")
# Translators: Button on the lobby message: the host cancels the table.
BUTTON_CANCEL = N_("Cancel", context="table")  # the web board's Cancel drops a pick instead
# Translators: Button under the final table: open a new table for the same players.
BUTTON_REMATCH = N_("Rematch")
# Translators: An option of the lobby's 'Computer players' menu (host only): seat a computer player of that level.
ADD_COMPUTER = N_("Add a computer player ({level})")
# Translators: An option of the lobby's 'Computer players' menu: remove the last computer player.
REMOVE_COMPUTER = N_("Remove a computer player")
# Translators: The lobby's menu of computer players, before a choice (host only).
COMPUTER_PLACEHOLDER = N_("Computer players (host only)")
# Translators: The lobby's menu for teams (Royal Wedding), before a choice: pick two seats to swap.
SWAP_PLACEHOLDER = N_("Swap two seats to arrange teams (host only)")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/game
# new). {permissions}: the missing permissions' names, joined with commas.
MISSING_PERMISSIONS = N_("I am missing permissions in this channel: {permissions}. Ask an admin to grant them.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/game
# new). {status}: 'lobby' or 'playing' from this catalogue.
CHANNEL_HAS_GAME = N_(
    "This channel already has a game (#{game_id}, {status}){link}. Finish or cancel it first, or start a thread "
    "for another game."
)
# Translators: A table's state, filled into {status} of 'This channel already has a game (#12, {status})'.
GAME_STATUS = {"lobby": N_("lobby"), "playing": N_("playing")}  # {status} of CHANNEL_HAS_GAME
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/game
# new): Discord did not accept the lobby message.
DISCORD_FAILED_LOBBY = N_("Discord did not take the table just now: try `/game new` again in a moment.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/game
# new).
CANNOT_POST_TABLE = N_(
    "I could not post the table in this channel ({error}): check that I can view the channel, send messages and "
    "attach files."
)
# Translators: A private reply, only the player who clicked or typed sees it: the host's confirmation after /game new.
# **Join** is the button's label (BUTTON_JOIN).
TABLE_OPEN = N_("Your table is open: players join with the **Join** button below.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (the
# lobby's swap menu).
PICK_TWO_SEATS = N_("Pick two different seats to swap.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (the
# lobby's swap menu).
PLAYER_LEFT_MEANWHILE = N_("One of those players has left the table meanwhile: pick again from the lobby's new list.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (Cancel).
ALREADY_OVER = N_("This game is already over.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right. 'Manage
# Channels' is Discord's permission: use the name Discord shows in your language.
ONLY_HOST_CANCEL = N_("Only the host or a member with Manage Channels can cancel this game.")
# Translators: A private reply, only the player who clicked or typed sees it: the host's confirmation after Cancel.
GAME_CANCELLED_PRIVATE = N_("The game is cancelled.")
# Translators: In the game's channel, everyone sees it: a game was cancelled. {user}: who cancelled it (their name).
GAME_CANCELLED_PUBLIC = N_("❌ {game} game #{game_id} was cancelled by {user}.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (a lobby
# button after the game started or ended).
LOBBY_CLOSED = N_("This lobby is closed: the game has started or ended.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (Join).
ALREADY_SEATED = N_("You already have a seat at this table.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (Join).
# {size}: the number of seats.
TABLE_FULL = N_("The table is full ({size} seats).")
# Translators: A private reply, only the player who clicked or typed sees it: after Join.
JOINED = N_("You joined the table.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (Leave).
NO_SEAT = N_("You have no seat at this table.")
# Translators: A private reply, only the player who clicked or typed sees it: after Leave.
LEFT = N_("You left the table.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (the
# lobby's computer menu).
ONLY_HOST_COMPUTERS = N_("Only the host adds or removes computer players.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (the
# lobby's computer menu).
NO_COMPUTER = N_("There is no computer player to remove.")
# Translators: A private reply, only the player who clicked or typed sees it (the host's): a computer player left the
# table.
SOMEONE_LEFT = N_("{name} left the table.")
# Translators: A private reply, only the player who clicked or typed sees it (the host's): a computer player took a
# seat.
SOMEONE_JOINED = N_("{name} joined the table.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (the
# lobby's swap menu).
ONLY_HOST_SEATS = N_("Only the host ({host}) arranges the seats.")
# Translators: A private reply, only the player who clicked or typed sees it (the host's): two players swapped seats.
# {first}, {second}: the two players' names.
SWAPPED = N_("{first} and {second} swapped seats.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (Start).
ONLY_HOST_START = N_("Only the host ({host}) can start the game.")
# Translators: A private reply, only the player who clicked or typed sees it: the host's confirmation after Start.
GAME_STARTED = N_("The game has started.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right: a button
# of an unknown kind (a bug if anyone sees it).
UNKNOWN_LOBBY_ACTION = N_("Unknown lobby action {action}.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (Start).
CANNOT_START = N_("This table cannot start yet: {reason}")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (Rematch).
REMATCH_ONLY_PLAYERS = N_("Only the players of that game can ask for a rematch: start a new one with `/game new`.")
# Translators: In the game's channel, everyone sees it: the rematch's lobby message, under its title.
REMATCH_NOTE = N_("🔁 Rematch! Same players and options; the host can start when everyone is ready.")
# Branch notify: the Rematch button is the players'; someone who watched joins its table like any other.
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (Rematch,
# clicked by someone who only watched). **Rematch** and **Join** are the buttons' labels.
REMATCH_WATCHER = N_(
    "**Rematch** is for the players of that game: their table is open, so take a seat with its **Join** button "
    "while one is free."
)
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/game new
# players:). {size}: the number asked for.
PLAYER_RANGE = N_("{game} takes {low}-{high} players, not {size}.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/game new
# computers:).
COMPUTERS_AT_MOST = NP_(
    "Leave at least one seat for a person: at most {n} computer player.",
    "Leave at least one seat for a person: at most {n} computer players.",
)
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/game
# new).
HOURS_RANGE = N_("{option} must be between 0.5 and 720 hours.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/game new,
# the web board's new table). {reason}: one of the CONFIG_REFUSALS sentences.
TABLE_IMPOSSIBLE = N_("That table is not possible: {reason}")

# -- playing (cogs/views.py, cogs/play.py) -----------------------------------------------------------------------
# Translators: A private reply, only the player who clicked or typed sees it: an unexpected error.
SORRY = N_("Sorry, something went wrong on my side; it has been logged. Look at the latest table before trying again.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right: an old
# button was clicked after the table changed.
STALE = N_("The table changed since this was shown: look at the latest table and try again.")
# Translators: The private turn panel (only the player whose turn it is sees it): what a placement would score before
# it is confirmed. {gain}: '+3 points'.
PREVIEW = N_("Preview: domino {domino} with its first square on {cell} and the second {direction}: **{gain}** now.")
# Translators: Button on the turn panel: confirm the placement shown.
BUTTON_CONFIRM = N_("Confirm")
# Translators: Button on the turn panel: go back to the previous choice.
BUTTON_BACK = N_("Back")
# Translators: A private reply, only the player who clicked or typed sees it: the turn panel of a game that ended or
# was cancelled.
NOT_PLAYED_ANY_MORE = N_("This game is not being played any more.")
# Translators: The private turn panel (only the player whose turn it is sees it): its first line, in bold.
YOUR_TURN_HEAD = N_("**Your turn** — {what}.")
# Translators: The private turn panel (only the player whose turn it is sees it): above the buttons of the first
# line's dominoes.
PICK_FIRST_LINE = N_("Pick a free domino of the first line (number and squares shown).")
# Translators: The private turn panel (only the player whose turn it is sees it): above the buttons of the next line's
# dominoes.
PICK_NEXT_LINE = N_("Pick a free domino of the next line (number and squares shown).")
# Translators: The private turn panel (only the player whose turn it is sees it).
ONLY_ONE_PLACEMENT = N_("Only one placement is possible.")
# Translators: The private turn panel (only the player whose turn it is sees it).
NO_PLACEMENT_FROM = N_("{cell} has no legal placement: pick another cell.")
# Translators: The private turn panel (only the player whose turn it is sees it).
ONLY_DIRECTION = N_("From {cell} the second square can only go {direction}.")
# Translators: The private turn panel (only the player whose turn it is sees it): after a cell is picked. {square},
# {second}: the domino's two squares in words.
WHICH_WAY = N_("First square {square} on **{cell}**: which way does the second square ({second}) go?")
# Translators: A direction button on the turn panel: '→ right (+3 points)'.
DIRECTION_LABEL = N_("{arrow} {direction} ({gain})")
# Translators: A direction word: in buttons, lists and sentences ('the second square goes right'). Keep it short.
DIRECTIONS = {"up": N_("up"), "right": N_("right"), "down": N_("down"), "left": N_("left")}
# Translators: The grey line under a cell in the turn panel's cell menu: which directions are legal from it.
THEN_DIRECTIONS = N_("then {directions}")
# Translators: The turn panel's cell menu before a choice. {first}, {last}: the first and the last cell of the list,
# like A1 and G7.
CELL_PLACEHOLDER = N_("Cell for {square} ({first} to {last})")
# Translators: The private turn panel (only the player whose turn it is sees it): the Queendomino steps after the
# placement.
OPTIONAL_HEAD = NP_(
    "**Your turn** — you may now do these steps, in this order, or skip them. You have {n} coin.",
    "**Your turn** — you may now do these steps, in this order, or skip them. You have {n} coins.",
)
# Translators: A button of the tax step: a knight on that cell and the coins it brings.
KNIGHT_ON_CELL = NP_("Knight on {cell}: +{n} coin", "Knight on {cell}: +{n} coins")
# Translators: A button of the tax step: knights on both squares of the domino and the coins they bring.
KNIGHTS_ON_BOTH = NP_("Knights on both squares: +{n} coin", "Knights on both squares: +{n} coins")
# Translators: The private turn panel (only the player whose turn it is sees it): the tax step. **Tax** in bold is the
# step's name.
TAX_STEP = NP_(
    "**Tax**: send knights onto the domino you just placed ({n} knight in reserve); each collects one coin per "
    "square of its territory, plus building bonuses.",
    "**Tax**: send knights onto the domino you just placed ({n} knights in reserve); each collects one coin per "
    "square of its territory, plus building bonuses.",
)
# Translators: An option of the build menu: a building and its price.
BUILD_OPTION = NP_("{building} — {n} coin", "{building} — {n} coins")
# Translators: The build menu of the turn panel, before a choice.
BUILD_PLACEHOLDER = N_("Build: choose a building you can afford")
# Translators: The private turn panel (only the player whose turn it is sees it): the build step. **Build** in bold is
# the step's name.
BUILD_STEP = N_("**Build**: buy a building of the builders' board and put it on a free town square.")
# Translators: An option of the dragon's menu: the building the dragon would burn.
BURN_OPTION = N_("Burn: {building}")
# Translators: The grey line under an option of the dragon's menu: where the building is.
BURN_SLOT = N_("slot {slot} of the builders' board")
# Translators: The dragon's menu of the turn panel, before a choice.
DRAGON_PLACEHOLDER = N_("Dragon: 1 coin, burn a building")
# Translators: The private turn panel (only the player whose turn it is sees it): the dragon step. **Dragon** in bold
# is the step's name.
DRAGON_STEP = N_("**Dragon**: for 1 coin it burns a building of the builders' board (once a round).")
# Translators: Button on the turn panel: finish the optional steps and go on to choose the next domino. Written as the
# player's own words.
DONE_CLAIM = N_("Done, choose my next domino")
# Translators: Button on the turn panel: finish the optional steps and the turn (last round). Written as the player's
# own words.
DONE_END = N_("Done, end my turn")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (the build
# menu).
CANNOT_BUILD_THAT = N_("You cannot build that one now: choose another building or skip.")
# Translators: A button of the build step: build on that cell.
BUILD_ON = N_("Build on {cell}")
# Translators: The private turn panel (only the player whose turn it is sees it): the question before the town
# squares' buttons.
BUILD_WHERE = NP_(
    "Build the **{building}** for {n} coin on which town square?",
    "Build the **{building}** for {n} coins on which town square?",
)
# Translators: A private reply, only the player who clicked or typed sees it: the turn panel once the move is saved.
DONE = N_("Done ✔ — the table is updated in the channel.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (the cell
# menu).
PICK_CELL_LIST = N_("Pick a cell from the list.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (the build
# menu).
PICK_BUILDING_LIST = N_("Pick a building from the list.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (the
# dragon's menu).
PICK_BURN_LIST = N_("Pick the building to burn from the list.")
# Translators: Button under the table (and in a turn's direct message): opens the player's own turn panel. The
# player's own words ('let me play my turn'), never an order to the bot to play for them.
BUTTON_TAKE_TURN = N_("Take my turn")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right: a button
# of a finished game.
GAME_OVER_BUTTONS = N_("This game is over: these buttons no longer do anything.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right: a button
# of an older table message.
TABLE_OUT_OF_DATE = N_("This table is out of date: use the buttons on the latest table in the channel.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right: a turn
# button clicked by someone not playing. `/look table` is a command: keep it as it is.
NOT_PLAYING = N_("You are not playing in this game: you can watch with `/look table`.")
# Translators: Buttons under the table: each opens a private look.
LOOKS = {
    # Translators: Opens /look kingdom for the clicker's own kingdom.
    "kingdom": N_("My kingdom"),
    "scores": N_("Scores"),
    # Translators: Opens /look remaining: the dominoes still to come.
    "remaining": N_("To come"),
    "history": N_("History"),
}
# Translators: A building with what it does, in text ({effect}: the EFFECT_ phrases joined with commas).
BUILDING_EFFECT = N_("{building} ({effect})")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/play
# build typed by hand).
PICK_FROM_SUGGESTIONS = N_("Pick the building and the cell from the suggestions (e.g. building 3, cell E4).")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/play
# dragon typed by hand).
PICK_BURN_SUGGESTIONS = N_("Pick the building to burn from the suggestions.")
# Translators: A suggestion under /play place's cell option: the cell and the directions it allows.
CELL_THEN = N_("{cell} (then {directions})")
# Translators: A suggestion under /play tax's option: the knights' cells and the coins.
TAX_CHOICE = NP_("{cells} (+{n} coin)", "{cells} (+{n} coins)")
# Translators: A suggestion under /play build's option: a building, its price and what it does.
BUILD_CHOICE = NP_("{building} — {n} coin: {effect}", "{building} — {n} coins: {effect}")

# -- the turn in fewer taps (branch phone): spots as buttons and lists, confirm and take the next domino in one tap
# Translators: A button of the turn panel: a spot for the domino, {cell} its first square, {arrow} where the second
# goes.
SPOT_LABEL = N_("{cell} {arrow} ({gain})")  # a button: where the first square goes, the arrow to the second
# Translators: An option of the turn panel's spot menu: the same as the button, with the direction in words.
SPOT_OPTION = N_("{cell} {arrow} {direction} ({gain})")  # the same in a list
# Translators: The turn panel's spot menu before a choice. {first}, {last}: the first and the last spot of the list,
# like 'A1 →'.
SPOT_PLACEHOLDER = N_("Every other spot ({first} to {last})")
# Translators: The private turn panel (only the player whose turn it is sees it): above the spots' buttons and menu.
PICK_SPOT = N_("Choose a spot to see it first: the buttons score the most now, the list has every other spot.")
# Translators: The private turn panel (only the player whose turn it is sees it): explains one spot button.
# {square}, {second}: the domino's two squares in words.
SPOT_LEGEND = N_("{spot} puts the first square ({square}) on {cell} and the second ({second}) next to it, {direction}.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (the spot
# menu).
PICK_SPOT_LIST = N_("Pick a spot from the list.")
# Translators: Button on the turn panel's preview: confirm the placement and take that domino next.
CONFIRM_TAKE = N_("Confirm, take {domino}")
# Translators: Button on the turn panel's preview: confirm the placement and end the turn.
CONFIRM_END = N_("Confirm and end my turn")
# Translators: Button on the turn panel's preview (Queendomino): confirm, then go on to tax, build or the dragon.
CONFIRM_THEN_STEPS = N_("Confirm, then tax, build or dragon")
# Translators: The private turn panel (only the player whose turn it is sees it): under the preview, above the buttons
# of the next line's dominoes.
PREVIEW_TAKE = N_("Tap the domino you want next: that confirms this placement too.")
# Translators: The private turn panel (only the player whose turn it is sees it): under the preview (Queendomino).
PREVIEW_TAKE_OR_STEPS = N_(
    "Tap the domino you want next: that confirms this placement and skips tax, buildings and the dragon. To use "
    "them, confirm first."
)
# Translators: The private turn panel (only the player whose turn it is sees it): under the preview in the last round
# (Queendomino).
PREVIEW_END_OR_STEPS = N_("Confirm and end your turn, or confirm first to use tax, buildings or the dragon.")
# Translators: A private reply, only the player who clicked or typed sees it.
PLACED_NOT_TAKEN = N_("Your domino is placed, but the next one could not be taken: {reason}")
# Translators: Button on the turn panel: take that domino for the next round.
TAKE_DOMINO = N_("Take {domino}")
# Translators: The private turn panel (only the player whose turn it is sees it): under the optional steps, above the
# next line's dominoes.
STEPS_THEN_TAKE = N_("Done with them, or skipping them? Tap the domino you want next.")
# Translators: Filled into {what} (a two-player game's first line): an imperative clause starting in lower case.
DECISION_YOU_FIRST_OF_TWO = N_("choose the first of your two dominoes of the first line")
# Translators: Filled into {what}: an imperative clause starting in lower case.
DECISION_YOU_SECOND_PICK = N_("choose your second domino of the first line")
# Translators: In the game's channel, everyone sees it: the score line under Queendomino rules, where coins count.
# {scores}: 'Ann 12 · Bob 9'.
SCORES_LINE_COINS = N_("Scores, with 1 point for every 3 coins: {scores}")
# Translators: /look scores (private): how a territory scores.
BREAKDOWN_LEGEND = N_("Each territory scores its squares × its crowns.")
# Translators: In the game's channel, everyone sees it: a player got the last free domino without choosing it.
FORCED_CLAIMED = N_("{player} was left with domino {domino}, the last free one.")

# Building effects (engine BuildingType.effect_text), one whole phrase each.
# Translators: What a building gives when built: knights (in lists of a building's effects).
EFFECT_KNIGHTS = NP_("+{n} knight", "+{n} knights")
# Translators: What a building gives when built: towers.
EFFECT_TOWERS = NP_("+{n} tower", "+{n} towers")
# Translators: A building's lasting effect: each tax brings 1 coin more per knight the player owns.
EFFECT_TAX_PER_KNIGHT = N_("tax +1 coin per knight owned")
# Translators: A building's lasting effect: each tax brings 1 coin more per tower.
EFFECT_TAX_PER_TOWER = N_("tax +1 coin per tower")
# Translators: A building that carries a crown.
EFFECT_CROWN = N_("1 crown")
# Translators: A building worth a fixed number of points at the end.
EFFECT_FIXED = NP_("{n} point", "{n} points")
# Translators: A building's points at the end: 2 for each separate territory of that terrain.
EFFECT_PER_TERRITORY = N_("2 points per {terrain} territory")
# Translators: A building's points at the end: 1 per tower.
EFFECT_PER_TOWER = N_("1 point per tower")
# Translators: A building's points at the end: 1 per knight.
EFFECT_PER_KNIGHT = N_("1 point per knight")
# Translators: A building with no effect.
EFFECT_NONE = N_("no effect")

# -- the service (cogs/service.py) -------------------------------------------------------------------------------
# Translators: A private answer or log line: a game's saved state could not be read.
GAME_UNREADABLE = N_("Game #{game_id} cannot be read ({error}). Other games are not affected.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right.
CHANNEL_GAME_UNREADABLE = N_("The game in this channel cannot be read ({error}).")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right: a game
# command in a channel with no game. `/game new` is a command: keep it.
NO_GAME_HERE = N_("There is no game in this channel: start one with `/game new`.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right.
NOT_STARTED_YET = N_("The game in this channel has not started yet: the host starts it from the lobby.")
# Translators: A private reply, only the player who clicked or typed sees it: the player's king got the last free
# domino.
FORCED_CLAIM = N_("Your king took domino {domino}, the last free one.")
# Translators: A private reply, only the player who clicked or typed sees it: {reason} is a whole sentence that ends
# with its full stop.
MOVE_SAVED_BUT = N_("Your move is saved, but: {reason} The table will be posted again shortly.")
# Translators: Filled into {reason} of 'Your move is saved, but: {reason}': a whole sentence.
TABLE_NOT_UPDATED = N_("I could not update the table just now.")
# Translators: Filled into {reason}: a whole sentence.
COULD_NOT_UPDATE = N_("I could not update the table just now.")
# Translators: In the game's channel, everyone sees it: above the first table.
GAME_BEGINS = N_("The game begins: {setup}.")
# Translators: In the game's channel, everyone sees it: under 'The game begins'. {size}: 5 or 7.
KINGDOM_LIMIT = N_("Each kingdom must fit in {size}×{size} squares, its castle included.")
# Translators: Filled into {setup} of 'The game begins: {setup}.' (the game and its players).
SETUP = NP_("{game}, {n} player", "{game}, {n} players")
# Translators: Filled into {setup} (Royal Wedding in teams).
SETUP_TEAMS = NP_("{game}, {players} players in {n} team", "{game}, {players} players in {n} teams")
# Translators: Filled into {setup}: the set-up and its variants.
SETUP_VARIANTS = N_("{setup} ({variants})")
# Translators: In the game's channel, everyone sees it: the title of the final table message.
TABLE_FINAL = N_("**{game}** — final table")
# Translators: In the game's channel, everyone sees it: the title of the table message while the first line is chosen.
TABLE_FIRST_LINE = N_("**{game}** — choosing the first line")
# Translators: In the game's channel, everyone sees it: the title of the table message.
TABLE_ROUND = N_("**{game}** — round {round}/{rounds}")
# Translators: In the game's channel, everyone sees it: the title of the table message in a Dynasty.
TABLE_DYNASTY_ROUND = N_("**{game}** — game {deal}/3, round {round}/{rounds}")
# Translators: In the game's channel, everyone sees it: one winner.
WINNER = N_("🏆 **{names}** wins!")
# Translators: In the game's channel, everyone sees it: several winners (a team, or a shared win).
WINNERS = N_("🏆 **{names}** win!")
# Translators: In the game's channel, everyone sees it: one winner after a tie.
WINNER_TIEBREAK = N_("🏆 **{names}** wins (tie-break: {tiebreak})!")
# Translators: In the game's channel, everyone sees it: several winners after a tie.
WINNERS_TIEBREAK = N_("🏆 **{names}** win (tie-break: {tiebreak})!")
# Translators: In the game's channel, everyone sees it: the table message's last line, pinging the player. {player}:
# their @mention.
YOUR_TURN_TABLE = N_("➡️ {player}, it's your turn: {what}.")
# Translators: In the game's channel, everyone sees it: under the table message when its picture failed.
PICTURE_FAILED = N_("⚠️ The picture of the table could not be drawn this time; the game goes on.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right. Send
# Messages, Attach Files, Send Messages in Threads: Discord's permission names, as your language's client shows them.
CANNOT_POST_PERMISSIONS = N_(
    "I cannot post the table in this channel: I need the Send Messages and Attach Files permissions (and Send "
    "Messages in Threads in a thread)."
)
# Translators: In the game's channel, everyone sees it: the turn's deadline passed and a computer played for the
# absent player.
TIME_RAN_OUT = N_("⏰ {name}'s time ran out: the computer played their turn.")
# Translators: In the game's channel, everyone sees it: a reminder pinging the player. {player}: their @mention.
REMINDER = N_("⏳ {player}, reminder: it's your turn in {game}: {what}.")
# Translators: In the game's channel, everyone sees it: a reminder pinging the player, with the table's address.
# {player}: their @mention; {link}: the address.
REMINDER_LINK = N_("⏳ {player}, reminder: it's your turn in {game}: {what}. The table: {link}")

# Translators: A direct message to the player. {where}: the server and the channel, like 'Friends #games'.
DM_TURN = N_("🎲 It's your turn in {game} ({where}): {what}.")
# Translators: A direct message to the player. {where}: the server and the channel; {link}: the table's address.
DM_TURN_LINK = N_("🎲 It's your turn in {game} ({where}): {what}. The table: {link}")
# Branch notify: reminders that say so, the turn told in the channel when a DM cannot be sent, the private note
# about closed DMs.
# Translators: A direct message reminding the player. {where}: the server and the channel.
DM_REMINDER = N_("⏳ Reminder: it's still your turn in {game} ({where}): {what}.")
# Translators: A direct message reminding the player. {where}: the server and the channel; {link}: the table's
# address.
DM_REMINDER_LINK = N_("⏳ Reminder: it's still your turn in {game} ({where}): {what}. The table: {link}")
# Translators: In the game's channel, everyone sees it: the player is pinged for their turn. {player}: their @mention.
TURN_PING = N_("➡️ {player}, it's your turn in {game}: {what}.")
# Translators: In the game's channel, everyone sees it: the player is pinged for their turn, with the table's address.
# {player}: their @mention; {link}: the address.
TURN_PING_LINK = N_("➡️ {player}, it's your turn in {game}: {what}. The table: {link}")
# Translators: In the game's channel, everyone sees it: the table message shows the latest moves; this line counts the
# ones left out. **History** is the button's label (LOOKS).
EARLIER_EVENTS = NP_(
    "… and {n} earlier move: **History** tells every move.", "… and {n} earlier moves: **History** tells every move."
)
# Translators: A private reply, only the player who clicked or typed sees it. `/settings notify` is a command: keep
# it.
DMS_CLOSED_PRIVATE = N_(
    "📪 I could not send you a direct message about your turn: your direct messages are closed to me, so I "
    "pinged you in the game's channel instead. `/settings notify` changes how you are told."
)
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/game
# new). `/game mine` is a command: keep it.
LIMIT_HOSTED = NP_(
    "You already host {n} open table in this server (the limit is {limit}): start or cancel one first "
    "(`/game mine` lists them).",
    "You already host {n} open tables in this server (the limit is {limit}): start or cancel one first "
    "(`/game mine` lists them).",
)
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/game new,
# Join). `/game mine` is a command: keep it.
LIMIT_PLAYING = NP_(
    "You already sit at {n} game in this server (the limit is {limit}): finish one first (`/game mine` lists them).",
    "You already sit at {n} games in this server (the limit is {limit}): finish one first (`/game mine` lists them).",
)

# -- looking (cogs/look.py) --------------------------------------------------------------------------------------
# Translators: /rules (private): a short summary, one paragraph in Discord markdown (**bold**). Use the glossary's
# words.
RULES_KINGDOMINO = N_(
    "**Kingdomino in short.** Each round, in the order of the kings on the current line (lowest number first), "
    "you place the domino your king stands on, then move your king to a free domino of the next line (that sets "
    "next round's order). A domino must touch your castle or a square of the same terrain, and your kingdom must "
    "fit in 5x5 (7x7 in Mighty Duel). If no placement is possible the domino is discarded. Score: for each "
    "territory, squares x crowns. Ties: largest territory, then most crowns."
)
# Translators: /rules (private): a short summary, one paragraph in Discord markdown. Use the glossary's words.
RULES_QUEENDOMINO = N_(
    "**Queendomino in short.** Kingdomino's turn (place, then claim) with three optional steps between: "
    "**tax** (send 1-2 knights onto the domino just placed: coins = squares of their territory), **build** (pay a "
    "slot's cost to put a building on a free town square; the queen's host pays 1 less), **dragon** (1 coin: burn "
    "a building of the board, once a round, never for the queen's host). Most towers (ties included) takes the "
    "queen, worth a crown on your largest territory. Score: territories, buildings, 1 point per 3 coins. Ties: "
    "largest territory, then leftover coins."
)
# Translators: /rules (private): the Royal Wedding's paragraph, after the Queendomino one.
RULES_ROYAL_WEDDING = N_(
    "**Royal Wedding**: both boxes, lines alternate Queendomino then Kingdomino. 3-4 players build 7x7; 5-7 "
    "players 5x5 with lines of 8; teams of two (6 or 8 players) share a 7x7 kingdom, coins and knights."
)
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/look).
NOT_STARTED_LOOK = N_("The game has not started yet: nothing to look at but the lobby.")
# Translators: A private reply, only the player who clicked or typed sees it: /look table's answer, above the picture.
TABLE_NOW = N_("The table now.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/look
# kingdom player:).
NOT_A_PLAYER = N_("That person is not playing in this game.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/look
# kingdom). `/look kingdom player:@name` is a command: translate only the option's name (as the command picker shows
# it, the slash-option 'player') and the 'name' after @.
NOT_PLAYING_LOOK = N_("You are not playing in this game: look at a player's kingdom with `/look kingdom player:@name`.")
# Translators: /look kingdom (private): above the kingdom's picture, in bold.
KINGDOM_TITLE = NP_("**{owners}**'s kingdom ({n} point):", "**{owners}**'s kingdom ({n} points):")
# Translators: /look scores (private): its title, in bold.
SCORES_SO_FAR_TITLE = N_("**Scores so far**")
# Translators: /look history (private): its title, in bold.
LAST_MOVES = N_("**Last moves**")
# Translators: /look history (private): nothing played yet.
NO_MOVE_YET = N_("No move yet.")
# -- branch undo: the history in pages, from the newest move ------------------------------------------------------
# Translators: /look history (private): the page's head. {first}, {last}: the first and the last move shown; {total}:
# how many moves.
HISTORY_HEAD = N_("**Moves {first}-{last} of {total}** (page {page} of {pages}; page 1 has the newest moves)")
# Translators: Button of /look history: the previous page.
BUTTON_OLDER = N_("Older moves")
# Translators: Button of /look history: the next page.
BUTTON_NEWER = N_("Newer moves")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right: a look of
# an unknown kind (a bug if anyone sees it).
UNKNOWN_VIEW = N_("Unknown view {view}.")
# -- branch review (issue #31): the post-game review, in the channel and with `/look review` ------------------------
# A move in words, in the review's lines and pictures ({domino}: its number; {cell}: like C4; {direction}: a
# DIRECTIONS word; {building}: its name).
# Translators: The post-game review (channel, private look and its pictures): a placement in words. {direction}: a
# direction word.
REVIEW_PLACE = N_("domino {domino} on {cell}, {direction}")
# Translators: The post-game review: a claimed domino, in words (the infinitive or a noun phrase, as the other REVIEW_
# moves).
REVIEW_CLAIM = N_("claim domino {domino}")
# Translators: The post-game review: knights sent to tax. {cells}: 'E4 + E5'.
REVIEW_TAX = NP_("a knight on {cells}", "knights on {cells}")
# Translators: The post-game review: a building built.
REVIEW_BUILD = N_("build {building} on {cell}")
# Translators: The post-game review: the dragon bribed.
REVIEW_DRAGON = N_("the dragon burns {building}")
# Translators: The post-game review: a skipped step.
REVIEW_SKIP = {"tax": N_("no tax"), "build": N_("no building"), "dragon": N_("no dragon")}
# Translators: The post-game review: when a decision was made.
REVIEW_ROUND = N_("Round {round}")
# Translators: The post-game review: the first claims, before round 1.
REVIEW_SETUP = N_("Set-up")  # the first claims, before round 1
# Translators: The post-game review: {points} always has one decimal (3.2, 1.0): use the form your language takes
# after a decimal number.
REVIEW_POINTS = N_("{points} points")  # {points}: always with one decimal, like 3.2 or 1.0: the form for a decimal
# Translators: In the game's channel, everyone sees it: the post-game review's head, after the final table.
REVIEW_TITLE = N_(
    "🔎 **The review**: for each player, the decisions that cost most, beside the move the hard computer player "
    "would have made (points: the average difference in the final score over the same sampled endings)."
)
# Translators: In the game's channel, everyone sees it: one player's part of the review.
REVIEW_PLAYER = N_("**{player}**:")
# Translators: The post-game review: one decision. {played}: the move made; {better}: the better move; {when}: 'Round
# 3' or 'Set-up'.
REVIEW_LINE = N_("{when}: {played}; better: {better} (+{points} on average)")  # {when}: REVIEW_ROUND or REVIEW_SETUP
# Translators: In the game's channel, everyone sees it: a player with no costly decision.
REVIEW_CLEAN = N_("**{player}**: no decision cost a point on average. Well played!")
# Translators: In the game's channel, everyone sees it: under the review. `/look review` is a command: keep it.
REVIEW_MORE = N_("Your review: `/look review` (only you see it).")
# Translators: /look review and the web board (private): the head of your own review.
REVIEW_YOURS_TITLE = N_(
    "🔎 **Your review**: the decisions that cost you most, beside the move the hard computer player would have made (points: the average difference in your final score over the same sampled endings)."
)
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/look
# review, the web board).
REVIEW_NOT_OVER = N_("The review is made when the game is over: this game is still being played.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/look
# review).
REVIEW_NOT_YOURS = N_("Only the people who played this game get its review, and you did not play in it.")
# Translators: A private reply, only the player who clicked or typed sees it (/look review).
REVIEW_WORKING = N_(
    "The review of this game is still being worked out (it takes a few minutes of thinking, after every other "
    "game's moves). It will be posted in the channel; ask again then."
)
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/look
# review, the web board).
REVIEW_NOT_MADE = N_("The review of this game could not be made; it has been logged.")
# Translators: Drawn on the review picture, under the player's name: its title.
PIC_REVIEW_HEAD = N_("the decisions that cost most")
# Translators: Drawn on the review picture, and said in private: no costly decision.
PIC_REVIEW_NONE = N_("No decision cost a point on average. Well played!")
# Translators: Drawn on the review picture: a decision's number and when. {number}: 1, 2, 3.
PIC_REVIEW_ITEM = N_("{number}. {when}")  # {when}: REVIEW_ROUND or REVIEW_SETUP
# Translators: Drawn on the review picture, right of each decision: what it cost. {points}: 'REVIEW_POINTS' words.
PIC_REVIEW_COST = N_("−{points} on average")
# Translators: Drawn on the review picture: the left column's heading, the move made.
PIC_REVIEW_YOURS = N_("Your move")
# Translators: Drawn on the review picture: the right column's heading, the move the hard computer player would have
# made.
PIC_REVIEW_BETTER = N_("Better (hard)")

# Translators: /stats players (private): the title for one member.
STATS_PLAYER_TITLE = N_("**{name}** in this server")
# Translators: /stats players (private): the title for the whole server.
STATS_SERVER_TITLE = N_("**This server's players**")
# Translators: /stats players (private): one game's statistics. {played}, {wins}: numbers of games; {average}: like
# 41.5; {best}: a score.
STATS_LINE = N_("{game}: {played} played, {wins} won, average {average}, best {best}")
# Translators: /stats players (private): one member's statistics. {player}: their @mention; {played}, {wins}: numbers
# of games.
STATS_SERVER_LINE = N_("{player} — {game}: {played} played, {wins} won, average {average}, best {best}")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/stats in
# a direct message).
STATS_PER_SERVER = N_("Statistics are kept per server: use this command in a server.")
# Translators: /stats (private): nothing to show yet.
NO_FINISHED_GAME = N_("No finished game yet.")

# Translators: /look kingdom (private): above the picture. `/look kingdom text:True` is a command: translate only the
# option's name as the command picker shows it (slash-option 'text').
KINGDOM_HEAD = NP_(
    "**{owners}**'s kingdom ({n} point). The grid in text: `/look kingdom text:True`.",
    "**{owners}**'s kingdom ({n} points). The grid in text: `/look kingdom text:True`.",
)
# Translators: A private reply, only the player who clicked or typed sees it (/look table): the table in words instead
# of the picture.
TABLE_NOT_DRAWN = N_("The table could not be drawn just now. {alt}")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/look
# replay, /look chart).
PICTURE_NOT_MADE = N_("That picture could not be made just now; it has been logged. Try again later.")
# Translators: /look replay (private): above the animated picture.
REPLAY_CAPTION = N_("The game so far, turn by turn.")
# Translators: /look chart (private): above the chart.
CHART_CAPTION = N_("Every kingdom's score, round by round.")
# branch pictures (issue #26): a look refused while too many pictures are being drawn for this member or server
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right: too many
# pictures are being drawn.
PICTURES_BUSY = N_("I am drawing too many pictures just now; try again in a minute.")
# Translators: /stats ratings (private): the title. μ − 3σ is a formula: keep it.
LEADERBOARD_TITLE = N_("**{game} leaderboard** (OpenSkill rating, μ − 3σ; recomputed from every result)")
# Translators: /stats ratings (private): one line. {rank}: 1, 2, 3; {rating}: like 21.4; {wins}: games won; {n}: games
# played.
LEADERBOARD_LINE = NP_(
    "{rank}. {player} — {rating} ({n} game, {wins} won)", "{rank}. {player} — {rating} ({n} games, {wins} won)"
)

# -- /game mine and the games elsewhere (cogs/mine.py, cogs/lobby.py) ------------------------------------------
# {channel} is the channel's mention; {link} is empty or " — " and the table's address.
# Translators: /game mine (private): the title, in bold.
MINE_TITLE = N_("**Your games in this server**")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right: a game
# command where there is no game, followed by the player's games.
MINE_ELSEWHERE = N_("There is no game in this channel. Your games in this server:")
# Translators: /game mine (private): no game. `/game new` is a command: keep it.
MINE_NONE = N_("You have no game in this server: start one with `/game new`.")
# Translators: /game mine (private): more pages. `/game mine page:{next}`: translate only the option's name as the
# command picker shows it (slash-option 'page').
MINE_PAGE = N_("Page {page} of {pages}: `/game mine page:{next}` for more.")
# Translators: /game mine (private): a table not started yet.
MINE_WAITING = N_("**{game}** in {channel}: a table waiting to start{link}")
# Translators: /game mine (private): a game that cannot be read. `/game cancel` is a command: keep it.
MINE_UNREADABLE = N_("**{game}** in {channel}: cannot be read (the host can close it with `/game cancel`)")
# Translators: /game mine (private): your turn, while the first line is chosen.
MINE_YOUR_TURN_FIRST_LINE = N_("➡️ **{game}** in {channel}, choosing the first line: **your turn**{link}")
# Translators: /game mine (private): your turn.
MINE_YOUR_TURN_ROUND = N_("➡️ **{game}** in {channel}, round {round}/{rounds}: **your turn**{link}")
# Translators: /game mine (private): someone else's turn, while the first line is chosen.
MINE_THEIR_TURN_FIRST_LINE = N_("**{game}** in {channel}, choosing the first line: it's {name}'s turn{link}")
# Translators: /game mine (private): someone else's turn.
MINE_THEIR_TURN_ROUND = N_("**{game}** in {channel}, round {round}/{rounds}: it's {name}'s turn{link}")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/game
# cancel). 'Manage Channels' is Discord's permission name.
UNREADABLE_ONLY_HOST = N_("Only the host or a member with Manage Channels can close this game that cannot be read.")
# Translators: A private reply, only the player who clicked or typed sees it (/game cancel).
UNREADABLE_CLOSED = N_("Game #{game_id} could not be read; it is closed and the channel is free for a new game.")

# -- /settings (cogs/settings.py) --------------------------------------------------------------------------------
# Translators: /settings notify (private): how the player is told their turn comes; no quiet hours.
NOTIFY_NO_QUIET = {
    "channel": N_("You are told it is your turn by a mention in the game's channel; no quiet hours."),
    "dm": N_("You are told it is your turn by a direct message with the link and the button; no quiet hours."),
    "both": N_("You are told it is your turn by both a mention and a direct message; no quiet hours."),
}
# Translators: /settings notify (private): how the player is told their turn comes, and their quiet hours.
NOTIFY_QUIET = {
    # Translators: {start}-{end}: the quiet hours; {zone}: the player's time zone.
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
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/settings
# notify).
NOT_A_TIME = N_("{typed} is not a time of day: write it like 22:30 or 7:00.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/settings
# notify how:). The three choices, as the picker shows them.
PICK_HOW = N_("Pick how from the list: channel, dm or both.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/settings
# notify). quiet_from and quiet_to: the options' names as the picker shows them (slash-option).
QUIET_BOTH_ENDS = N_("Give both ends of your quiet hours: quiet_from and quiet_to (like 22:30 and 07:00).")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/settings
# notify).
QUIET_DIFFER = N_("Quiet hours need a start and an end that differ.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/settings
# notify timezone:). The zone names are IANA's: keep them in English.
UNKNOWN_TIMEZONE = N_(
    "{zone} is not a time zone I know. Time zones are written like Europe/Bucharest, Europe/Madrid or "
    "America/Mexico_City."
)
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/settings
# server in a direct message).
SERVER_SETTINGS_IN_SERVER = N_("Server settings are set in a server.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/settings
# server). 'Manage Server' is Discord's permission name.
ONLY_MANAGE_SERVER = N_("Only members with Manage Server change this server's limits.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/settings
# server).
SERVER_LIMIT_RANGES = N_(
    "Open tables per member go from 1 to 50, games per member from 1 to 200, and the hours before a table nobody "
    "starts closes from 0.5 to 720."
)

# -- /play typed input (cogs/play.py) ----------------------------------------------------------------------------
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/play
# typed by hand).
BAD_CELL = N_("Cannot read cell {typed}: write a column letter and a row number, like E5.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/play
# typed by hand).
UNREADABLE_TYPED = N_("I could not read what you typed: pick one of the suggestions the command offers.")

# -- pictures (render/*.py): short, they must fit their boxes ----------------------------------------------------
# Translators: Drawn on the placement preview picture's banner. {cells}: the domino's two cells, 'E4 and E5'.
PIC_PREVIEW = N_("Preview: domino {domino} on {cells}")
# Translators: Drawn on the kingdom picture's score banner: a score part. {points}: a number.
PIC_QUEEN = N_("Queen {points}")
# Translators: Drawn on the kingdom picture's score banner: a score part. {points}: a number.
PIC_BUILDINGS = N_("Buildings {points}")
# Translators: Drawn on the kingdom picture's score banner: a score part. {points}: a number.
PIC_COINS = N_("Coins {points}")
# Translators: Drawn on the kingdom picture's score banner: the Middle Kingdom bonus. {points}: a number.
PIC_MIDDLE = N_("Middle {points}")
# Translators: Drawn on the kingdom picture's score banner: the Harmony bonus. {points}: a number.
PIC_HARMONY = N_("Harmony {points}")
# Translators: Drawn on the kingdom picture's score banner: no points yet. At most about 60 characters.
PIC_NO_POINTS = N_("No points yet: a territory scores its squares times its crowns")
# Translators: Drawn on /look remaining's picture: its title.
PIC_STILL_TO_COME = N_("Still to come")
# Translators: Drawn on /look remaining's picture: under the title.
PIC_STILL_TO_COME_NOTE = N_("Squares and crowns on the dominoes not revealed yet")
# Translators: Drawn on the score sheet picture: column headings (and the table picture's legend). A word or two: the
# columns are narrow.
PIC_COLUMNS = {
    "queen": N_("Queen"),
    "buildings": N_("Buildings"),
    "coins": N_("Coins"),
    # Translators: The Middle Kingdom bonus column, in one word.
    "middle_kingdom": N_("Middle"),
    "harmony": N_("Harmony"),
    # Translators: A tie-break column: the size of the largest territory.
    "largest": N_("Largest"),
    # Translators: A tie-break column: coins left over after their points.
    "coins_left": N_("Coins left"),
    "crowns": N_("Crowns"),
    "total": N_("Total"),
    "player": N_("Player"),
    "team": N_("Team"),
}
# Translators: Drawn on the score sheet and the chart: a Dynasty's game. {number}: 1, 2 or 3.
PIC_GAME_N = N_("Game {number}")
# Translators: Drawn on the score sheet picture: its title when the game is over.
PIC_FINAL_SCORES = N_("Final scores")
# Translators: Drawn on the score sheet picture: its title during the game.
PIC_SCORES_SO_FAR = N_("Scores so far")
# Translators: Drawn on the score sheet picture (Dynasty). {number}: 1, 2 or 3.
PIC_GAME_DETAIL = N_("Game {number} in detail")
# Translators: Drawn on the score sheet picture. {details}: the buildings and their points.
PIC_BUILDINGS_DETAIL = N_("Buildings: {details}")
# Translators: Drawn under the score sheet: how a tie was broken. {others}: the other tied players; {how}: a TIEBREAKS
# phrase.
PIC_TIE_BROKEN = NP_(
    "Tie on {n} point with {others}: broken by {how}.", "Tie on {n} points with {others}: broken by {how}."
)
# Translators: Drawn under the score sheet: a shared win.
PIC_TIE_SHARED = N_("Tied on points, largest territory and the next tie-break: the win is shared.")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: the status line,
# one winner.
PIC_GAME_OVER_ONE = NP_("Game over: {names} wins with {n} point", "Game over: {names} wins with {n} points")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: the status line,
# several winners.
PIC_GAME_OVER_MANY = NP_("Game over: {names} win with {n} point", "Game over: {names} win with {n} points")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: the title bar's
# right side, once the game is over. One word.
PIC_FINAL = N_("Final")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: the title bar's
# right side, before round 1.
PIC_SETUP_FIRST_LINE = N_("Set-up: first line")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: the title bar's
# right side.
PIC_ROUND = N_("Round {round} of {rounds}")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: the title bar's
# right side, in the last round.
PIC_ROUND_LAST = N_("Round {round} of {rounds} · last round")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: the first line's
# caption.
PIC_FIRST_LINE_CLAIM = N_("First line: claim a domino")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: the next line's
# caption.
PIC_NEXT_LINE = N_("Next line")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: under 'Next
# line' while the kings are still placed on the first line.
PIC_NEXT_LINE_NOTE = N_("Drawn once every king is placed")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: the current
# line's caption.
PIC_THIS_ROUND = N_("This round ({round})")
# Translators: What broke a tie, filled into {tiebreak} or {how} of other sentences ('tie-break: the largest
# territory').
TIEBREAKS = {  # engine Result.tiebreak -> the words after "broken by"
    "largest territory": N_("the largest territory"),
    "most crowns": N_("the most crowns"),
    "leftover coins": N_("the most coins left over"),
}
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: the status line,
# whose turn it is and what they do. {name}: the player's name.
PIC_STATUS = {  # the table picture's status line: whole sentences per decision
    "first_claim": N_("{name} chooses a domino of the first line"),
    "place": N_("{name} places domino {domino}"),
    "tax": N_("{name} may send knights to collect tax"),
    "build": N_("{name} may build"),
    "dragon": N_("{name} may bribe the dragon"),
    "claim": N_("{name} chooses a domino of the next line"),
}
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: the status line
# after a tie-break.
PIC_GAME_OVER_TIEBREAK = NP_(
    "Game over: {names} with {n} point, by the tie-break on {tiebreak}",
    "Game over: {names} with {n} points, by the tie-break on {tiebreak}",
)
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box (and the score
# sheet): the title bar's count of players.
PIC_PLAYERS = NP_("{n} player", "{n} players")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: the title bar,
# Royal Wedding in teams ('8 players in 4 teams'). {players}: 6 or 8; {n}: the number of teams, 3 or 4.
PIC_PLAYERS_TEAMS = NP_("{players} players in {n} team", "{players} players in {n} teams")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: the title bar in
# a Dynasty.
PIC_DEAL = N_("game {deal} of {deals}")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: in place of the
# next line, at the end.
PIC_NO_DOMINOES_LEFT = N_("No dominoes left")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: a caption.
PIC_NEXT_ROUND = N_("Next round")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: a caption.
PIC_NEXT_ROUND_N = N_("Next round ({round})")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: in place of the
# next line in the last round.
PIC_LAST_ROUND_NO_NEXT = N_("Last round: no next line")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: on a building's
# card of the builders' board, before a coin icon: the tax. One short word.
PIC_TAX = N_("tax")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: on a building's
# card, after a star: its points, abbreviated. Use the same abbreviation as 'pts' (PIC_PTS).
PIC_POINTS_SHORT = NP_("{n} pt", "{n} pts")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: on a building's
# card, before an icon: points per thing ('2 pts per [tower]'). The same abbreviation as 'pts'.
PIC_POINTS_PER = NP_("{n} pt per", "{n} pts per")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: on a building's
# card, after a terrain's square: per territory of it. One short word.
PIC_AREA = N_("area")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: the builders'
# board: buildings left in its stack.
PIC_STACK = NP_("{n} building in the stack", "{n} buildings in the stack")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: the builders'
# board's footer, beside the dragon.
PIC_DRAGON_CAVE = N_("Dragon in its cave: 1 coin burns a building")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: the builders'
# board's footer: the dragon burned a building this round.
PIC_DRAGON_FLEW = N_("The dragon flew this round (slot {slot})")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: the builders'
# board's footer, beside the queen: nobody has her yet (most towers brings her).
PIC_QUEEN_NO_HOST = N_("Queen: no host yet (most towers)")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: the builders'
# board's footer, beside the queen. {host}: the player (or team 'Ann & Bob') who has her. A whole phrase whose subject
# builds: that player builds for 1 coin less.
PIC_QUEEN_HOST = N_("Queen hosted by {host}: builds for 1 less")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: small captions
# in a kingdom's panel, beside numbers and icons. One or two words.
PIC_CAPTIONS = {
    # Translators: Beside the knights' icon: knights not yet sent.
    "reserve": N_("reserve"),
    # Translators: Beside the queen's icon on the kingdom that has her.
    "host": N_("host", context="queen"),  # the queen's host, not the table's
    "coins": N_("coins"),
    "in reserve": N_("in reserve"),
    "towers": N_("towers"),
    # Translators: In the legend, beside the queen's icon.
    "queen's host": N_("queen's host"),
    "crowns": N_("crowns"),
    "largest area": N_("largest area"),
}
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: a Dynasty
# kingdom's total over the games, beside its score. {points}: a number.
PIC_MATCH = N_("match {points}")
# Translators: Drawn on the score sheet's subtitle.
PIC_ROUND_OF = N_("round {round} of {rounds}")
# Translators: Drawn under the score sheet during a Dynasty.
PIC_LEADS = NP_("{name} leads with {n} point; the game goes on.", "{name} leads with {n} points; the game goes on.")
# Translators: Drawn under the score sheet: one winner.
PIC_WINS_WITH = NP_("{name} wins with {n} point.", "{name} wins with {n} points.")
# Translators: Drawn under the score sheet: a winning team. {name}: the team's two names.
PIC_TEAM_WINS_WITH = NP_("{name} win with {n} point.", "{name} win with {n} points.")
# Translators: Drawn under the score sheet: a shared win.
PIC_SHARE_WIN = NP_("{names} share the win with {n} point.", "{names} share the win with {n} points.")

# -- added to the cogs and pictures since the first extraction (main after the engine and lobby merges) --------
# Translators: /look scores (private): what broke the tie.
TIEBREAK_LINE = N_("Tie-break: {tiebreak}.")
# Translators: A private reply, only the player who clicked or typed sees it: after Leave, when the host left. {host}:
# the new host's @mention.
LEFT_NEW_HOST = N_("You left the table; {host} is the host now.")
# Translators: A private reply, only the player who clicked or typed sees it: after Leave, when nobody is left.
LEFT_CLOSED = N_("You left the table; nobody else was seated, so it is closed.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (Start).
NEEDS_A_PERSON = N_("A table needs at least one person: join it, or cancel it.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (Start).
# **Join** is the button's label.
SEAT_FIRST = N_("Take a seat first (**Join**): nobody starts a table they are not at.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (the
# lobby's computer menu). The choices as the menu shows them.
PICK_MENU_CHOICE = N_("Pick one of the menu's choices: easy, medium, hard or remove.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (Rematch).
REMATCH_USED = N_("This rematch button was already used: start a new game with `/game new`.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (Rematch).
REMATCH_OTHER_GAME = N_("This channel has another game now: the rematch button no longer works.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (Rematch).
REMATCH_SEATED = N_("You already have a seat at the rematch.")
# Translators: In the game's channel, everyone sees it: the rematch's table opened. **Rematch** and **Join** are the
# buttons' labels.
REMATCH_OPEN = N_("🔁 Rematch of game #{game_id}! Its players take their seat with **Rematch** or **Join**.")
# Translators: A log line or a private answer: the game's channel was deleted.
CHANNEL_GONE = N_("This channel no longer exists: its game has ended.")
# Translators: /look scores (private): its title once the game is over, in bold.
FINAL_SCORES_TITLE = N_("**Final scores**")
# Translators: /look remaining (private): dominoes still face down. {total}: how many dominoes the game uses (24, 36,
# 48 or 96).
UNSEEN_OF = NP_("{n} of {total} domino not seen yet.", "{n} of {total} dominoes not seen yet.")
# Translators: /look remaining (private), after the game. {total}: how many dominoes the game used.
UNSEEN_OF_OVER = NP_(
    "{n} of {total} domino not seen yet (the game is over).",
    "{n} of {total} dominoes not seen yet (the game is over).",
)
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (/play
# typed by hand).
TYPED_TOO_LONG = N_(
    "{typed} is not something I can play ({length} characters): pick one of the suggestions the command offers."
)
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: the final
# ranking's title.
PIC_FINAL_RANKING = N_("Final ranking")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: the builders'
# board's title (Queendomino). The glossary's word.
PIC_BUILDERS_BOARD = N_("Builders' board")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: on an empty slot
# of the builders' board: its building was bought this round.
PIC_SOLD = N_("sold this round")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: on an empty slot
# of the builders' board: its building was burned (agrees with your word for building).
PIC_BURNED = N_("burned")
# Translators: Drawn on the kingdom picture's stats line: this kingdom has the queen.
PIC_HOSTS_QUEEN = N_("hosts the queen")
# Translators: Drawn on the preview pictures: a gain or a loss. {n}: the number with its sign, '+3' or '-1'.
PIC_DELTA = NP_("{n} point", "{n} points")  # signed: "+3 points", "-1 point" (n with its sign)
# Translators: Drawn on the preview pictures: a placement that scores nothing.
PIC_NO_POINTS_DELTA = N_("no points")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: on a domino of
# the current line already placed (agrees with your word for domino).
PIC_PLACED = N_("placed")  # a domino of the current line already placed
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box and the offer
# picture: on a domino no king has chosen (agrees with your word for domino).
PIC_FREE = N_("free")  # a domino no king has chosen yet
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: after a
# kingdom's score, in small letters: the points, abbreviated. The same abbreviation as PIC_POINTS_SHORT.
PIC_PTS = N_("pts")  # after a kingdom's score
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: a tag on the
# kingdom of the player to act. Short, in capitals.
PIC_TO_PLAY = N_("TO PLAY")
# Translators: Drawn on the score sheet's subtitle: the number of teams.
PIC_TEAMS = NP_("{n} team", "{n} teams")  # the score sheet's subtitle in a team game
# Translators: Drawn on a Dynasty's score sheet, under 'Game 2'.
PIC_IN_DETAIL = N_(
    "in detail:"
)  # under "Game 2" on a Dynasty's score sheet  # the tag on the kingdom of the player to act

# -- branch render: the table's legends (render/table.py) ----------------------------------------------------------
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box (Royal Wedding):
# the legend beside a K, as in K14.
PIC_BOX_KINGDOMINO = N_("a domino from the Kingdomino box")  # Royal Wedding: beside a K, as in K14
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box (Royal Wedding):
# the legend beside a Q, as in Q14.
PIC_BOX_QUEENDOMINO = N_("a domino from the Queendomino box")  # Royal Wedding: beside a Q, as in Q14
# Translators: Drawn on the placement picture's banner: how many marked cells can take the domino's first square.
PIC_FIRST_SQUARE_SPOTS = NP_(  # the large kingdom while a domino is placed
    "{n} marked cell can take the first square: pick it, then a direction",
    "{n} marked cells can take the first square: pick one, then a direction",
)
# Translators: Drawn on the placement picture's banner at the build step: how many town squares can take the building.
PIC_BUILD_SPOTS = NP_(  # the large kingdom at the build step
    "{n} marked town square can take the building",
    "{n} marked town squares can take the building: pick one",
)
# Translators: Drawn on the kingdom picture's score banner. {parts}: 'Mine 2 · Coins 2'.
PIC_SCORE_SO_FAR = NP_("{n} point so far: {parts}", "{n} points so far: {parts}")  # parts: "Mine 2 · Coins 2"
# Translators: Drawn on the kingdom picture's score banner once the game is over.
PIC_SCORE_FINAL = NP_("{n} point: {parts}", "{n} points: {parts}")
# Translators: Drawn on the table picture (about 780 px wide on a phone): short, it must fit its box: after a
# kingdom's number of crowns ('2 crowns'); the number is drawn separately.
PIC_CROWNS_CAPTION = NP_("crown", "crowns")  # after a kingdom's number of crowns on the table: "1 crown", "2 crowns"

# -- the turn panel's words since the switch (cogs/views.py): alt texts, undo ----------------------------------
# Translators: Alt text of a picture, read aloud by screen readers: one plain sentence, no line breaks (the turn
# panel's preview).
PREVIEW_ALT = N_("Preview of your kingdom with domino {domino} placed from {cell}, second square {direction}: {gain}.")
# Translators: Alt text of a picture, read aloud by screen readers: one plain sentence, no line breaks. {free}: the
# free dominoes in words.
FREE_FIRST_LINE_ALT = N_("The free dominoes of the first line: {free}.")
# Translators: Alt text of a picture, read aloud by screen readers: one plain sentence, no line breaks. {free}: the
# free dominoes in words.
FREE_NEXT_LINE_ALT = N_("The free dominoes of the next line: {free}.")
# Translators: Alt text of a picture, read aloud by screen readers: one plain sentence, no line breaks (the turn
# panel's placement picture).
PLACEMENT_ALT = N_("Your kingdom with domino {domino} on {cell}; the second square can go {directions}.")
# Translators: Alt text of a picture, read aloud by screen readers: one plain sentence, no line breaks.
LEGAL_CELLS_ALT = N_("Legal cells: {cells}")
# Translators: Alt text of a picture, read aloud by screen readers: one plain sentence, no line breaks.
FREE_TOWN_ALT = N_("Free town squares: {cells}")
# Translators: Alt text of a picture, read aloud by screen readers: one plain sentence, no line breaks. {choices}:
# each knight's cell and coins.
TAX_ALT = N_("The domino just placed and the coins each knight would collect: {choices}")
# Translators: Alt text of a picture, read aloud by screen readers: one plain sentence, no line breaks.
DRAGON_ALT = N_("The builders' board: what each building costs and what burning it takes from whom.")
# Translators: Button on the turn panel after a move: take it back. Written as the player's own words.
BUTTON_UNDO = N_("Undo my last move")
# Translators: A private reply, only the player who clicked or typed sees it: after the undo button.
TAKEN_BACK = N_("Taken back.")

# -- the web board (web/, branch web) ----------------------------------------------------------------------------
# Sentences of the board's server and of its page (web/strings.py hands the page its words in the reader's language).
# Translators: The web board's page (a browser, or the board inside Discord): the status line for the player to act.
YOUR_TURN_WEB = N_("It's your turn: {what}.")
# Translators: The web board: an error shown in the page's message strip.
WEB_TOO_FAST = N_("Too many requests at once: wait a moment and try again.")
# Translators: The web board: an error shown in the page's message strip.
WEB_OTHER_SITE = N_("This request came from another site: open the board from its own address.")
# Translators: The web board: an error shown in the page's message strip (for programs calling the board).
# Content-Type: application/json is technical: keep it.
WEB_JSON_ONLY = N_("The board only accepts JSON requests (Content-Type: application/json).")
# Translators: The web board: an error shown in the page's message strip (for programs calling the board).
WEB_TOO_LARGE = N_("That request is too large: at most {limit} bytes.")
# Translators: The web board: an error shown in the page's message strip (for programs calling the board). "version"
# and "action" are field names: keep them.
WEB_BAD_JSON = N_('That request is not a JSON object: send an object with "version" and "action".')
# Translators: The web board: an error shown in the page's message strip.
WEB_BAD_LANGUAGE = N_("Unknown language: choose one of {languages}.")
# Translators: The web board: an error shown in the page's message strip.
WEB_NO_GAME = N_("There is no such game.")
# Translators: The web board: an error shown in the page's message strip.
WEB_TOO_MANY_BOARDS = N_("Too many boards are open in this browser: close some and try again.")
# Translators: The web board: an error shown in the page's message strip (for programs calling the board). "version"
# is a field name: keep it.
WEB_NEED_VERSION = N_('Say which version of the game you saw: a whole number in "version".')
# Translators: The web board: an error shown in the page's message strip (for programs calling the board). The action
# names in brackets are the API's: keep them in English.
WEB_BAD_ACTION = N_(
    "That action is not one the game knows: send one of the actions the board lists for your turn "
    "(claim, place, tax, build, dragon or skip)."
)
# Translators: The web board: an error shown in the page's message strip. /game new is a command: keep it.
WEB_DISCORD_TABLES = N_("Games are started in Discord here: use /game new in a channel.")
# Translators: The web board: an error shown in the page's message strip.
WEB_TOO_MANY_GAMES = N_(
    "The board holds {limit} open games, its most: leave or cancel one of yours, or try again later."
)
# Translators: The web board's page (a browser, or the board inside Discord): the name of a player at a table opened
# on the board itself. {number}: 1, 2...
WEB_PERSON_NAME = N_("Player {number}")
# Translators: The web board: an error shown in the page's message strip (for programs calling the board).
WEB_BAD_FIELD = N_("The table's {field} is not possible: choose among {allowed}.")
# Translators: The web board: an error shown in the page's message strip.
WEB_ONLY_HOST_START = N_("Only the person who opened the table can start the game.")
# Translators: The web board's page opened from an old link: the whole page says only this (with a link back).
WEB_LINK_EXPIRED = N_("This link has expired or is not valid: ask for the board again in Discord.")
# Translators: The web board: an error shown in the page's message strip.
WEB_NOT_SEATED = N_("You have no seat at this table: you can watch.")
# Translators: The web board's page (a browser, or the board inside Discord): the page's title (the browser tab),
# before and after its script runs.
WEB_APP_TITLE = N_("Kingdomino board")
# Translators: The web board's page (a browser, or the board inside Discord): the heading of the form that opens a
# table.
WEB_NEW_GAME = N_("New game")
# Translators: The web board's page (a browser, or the board inside Discord): a form field's label (which game).
WEB_GAME = N_("Game")
# Translators: The web board's page (a browser, or the board inside Discord): a form field's label (how many players).
WEB_PLAYERS = N_("Players")
# Translators: The web board's page (a browser, or the board inside Discord): a form field's label (how many computer
# players).
WEB_COMPUTERS = N_("Computer players")
# Translators: The web board's page (a browser, or the board inside Discord): a form field's label (the computer
# players' level).
WEB_LEVEL = N_("Computer level")
# Translators: The web board's page (a browser, or the board inside Discord): a form field's label.
WEB_VARIANTS = N_("Variants")
# Translators: The web board's page (a browser, or the board inside Discord): a form field's label (Royal Wedding).
WEB_TEAMS = N_("Teams of two")
# Translators: The web board's page (a browser, or the board inside Discord): the label of the language menu at the
# top, read by screen readers; shown before the page's script runs.
WEB_LANGUAGE = N_("Language")
# Translators: The web board's page (a browser, or the board inside Discord): the button that opens the table.
WEB_CREATE = N_("Open the table")
# Translators: The web board's page (a browser, or the board inside Discord): a heading.
WEB_YOUR_GAMES = N_("Your games and open tables")
# Translators: The web board's page (a browser, or the board inside Discord).
WEB_NO_GAMES = N_("No game yet: open a table above.")
# Translators: The web board's page (a browser, or the board inside Discord): a button.
WEB_TAKE_SEAT = N_("Take a seat")
# Translators: The web board's page (a browser, or the board inside Discord): a button.
WEB_START = N_("Start the game")
# Translators: The web board's page (a browser, or the board inside Discord): a table waiting for players. {free}:
# free seats; {size}: all seats.
WEB_WAITING = N_("Waiting for players: {free} of {size} seats free.")
# Translators: The web board's page (a browser, or the board inside Discord): a button (turns the domino being
# placed). One word.
WEB_ROTATE = N_("Rotate")
# Translators: The web board's page (a browser, or the board inside Discord): a button. One word.
WEB_CONFIRM = N_("Confirm")
# Translators: The web board's page (a browser, or the board inside Discord): a button that drops the domino or
# building being picked (the table's own Cancel, context "table", is another entry). One word.
WEB_CANCEL = N_("Cancel")
# Translators: The web board's page (a browser, or the board inside Discord): a button (takes the last move back). One
# or two words.
WEB_UNDO = N_("Undo")
# Translators: The web board's page (a browser, or the board inside Discord): a button (skips an optional step). One
# word.
WEB_SKIP = N_("Skip")
# Translators: The web board's page (a browser, or the board inside Discord): the round, at the top.
WEB_ROUND = N_("Round {round} of {rounds}")
# Translators: The web board's page (a browser, or the board inside Discord): a heading.
WEB_FIRST_LINE = N_("First line")
# Translators: The web board's page (a browser, or the board inside Discord): a heading.
WEB_CURRENT_LINE = N_("This round's line")
# Translators: The web board's page (a browser, or the board inside Discord): a heading.
WEB_NEXT_LINE = N_("Next line")
# Translators: The web board's page (a browser, or the board inside Discord): a heading (the glossary's word).
WEB_BUILDERS = N_("Builders' board")
# Translators: The web board's page (a browser, or the board inside Discord): a label beside a number.
WEB_COINS = N_("Coins")
# Translators: The web board's page (a browser, or the board inside Discord): a label beside a number.
WEB_KNIGHTS = N_("Knights")
# Translators: The web board's page (a browser, or the board inside Discord): a label beside a number.
WEB_TOWERS = N_("Towers")
# Translators: The web board's page (a browser, or the board inside Discord): a label beside a kingdom's score.
WEB_SCORE = N_("Score")
# Translators: The web board's page (a browser, or the board inside Discord): on the kingdom that has the queen.
WEB_QUEEN = N_("The queen is here")
# Translators: The web board's page (a browser, or the board inside Discord): a label.
WEB_DRAGON = N_("Dragon")
# Translators: The web board's page (a browser, or the board inside Discord): a cell's name for screen readers.
WEB_CASTLE = N_("Castle")
# Translators: The web board's page (a browser, or the board inside Discord): an empty cell, for screen readers
# (agrees with your word for cell).
WEB_EMPTY = N_("empty")
# Translators: The web board's page (a browser, or the board inside Discord): after the reader's own name.
WEB_YOU = N_("you")
# Translators: The web board's page (a browser, or the board inside Discord): after a computer player's name.
WEB_COMPUTER = N_("computer")
# Translators: The web board's page (a browser, or the board inside Discord): the heading of the latest moves.
WEB_LOG = N_("What happened")
# Translators: The web board's page (a browser, or the board inside Discord): a heading.
WEB_FINAL = N_("Final scores")
# Translators: The web board's page (a browser, or the board inside Discord): the link back to the list of games.
WEB_BACK = N_("All games")
# Translators: The web board's page (a browser, or the board inside Discord): a button's name for screen readers.
WEB_ZOOM_IN = N_("Zoom in")
# Translators: The web board's page (a browser, or the board inside Discord): a button's name for screen readers.
WEB_ZOOM_OUT = N_("Zoom out")
# Translators: The web board's page (a browser, or the board inside Discord): a tag at the top while the board is
# connected and live.
WEB_LIVE = N_("Live")
# Translators: The web board's page (a browser, or the board inside Discord): a tag at the top while the connection
# comes back.
WEB_RECONNECTING = N_("Reconnecting…")
# Translators: The web board's page (a browser, or the board inside Discord): for someone with no seat.
WEB_WATCHING = N_("You are watching.")
# Translators: The web board's page (a browser, or the board inside Discord): a hint for placing. A marked square is a
# cell of the grid.
WEB_PLACE_TIP = N_("Tap a marked square for the domino's first square, rotate, then confirm.")
# Translators: The web board's page (a browser, or the board inside Discord): a hint for choosing the next domino.
WEB_CLAIM_TIP = N_("Tap a free domino of the next line to claim it.")
# Translators: The web board's page (a browser, or the board inside Discord): a hint for choosing a domino of the
# first line.
WEB_FIRST_CLAIM_TIP = N_("Tap a free domino of the first line to claim it.")
# Translators: The web board's page (a browser, or the board inside Discord): a hint for the tax step.
WEB_TAX_TIP = N_("Tap a square of the domino you just placed to send a knight there.")
# Translators: The web board's page (a browser, or the board inside Discord): a hint for the build step.
WEB_BUILD_TIP = N_("Tap a building you can afford, then a free town square.")
# Translators: The web board's page (a browser, or the board inside Discord): a hint for the dragon step.
WEB_DRAGON_TIP = N_("Tap a building for the dragon to burn.")
# Translators: The web board's page (a browser, or the board inside Discord): a tax choice. {coins}: '+3 coins'.
WEB_BOTH_SQUARES = N_("Both squares: {coins}")
# Translators: The web board's page (a browser, or the board inside Discord): a spot's description for screen readers.
WEB_PLACE_AT = N_("First square on {cell}: {gain}")
# Translators: The web board's page (a browser, or the board inside Discord): the placement being prepared.
WEB_PREVIEW = N_("Domino {domino}: first square on {cell}, second square {direction}: {gain}")
# Translators: The web board's page (a browser, or the board inside Discord): a domino's button name for screen
# readers.
WEB_CLAIM = N_("Claim domino {domino}")
# Translators: The web board's page (a browser, or the board inside Discord): a building's button name. {coins}: its
# price in words, '3 coins'.
WEB_BUILD = N_("Build {building} for {coins}")
# Translators: The web board's page (a browser, or the board inside Discord): a building's button name at the dragon
# step.
WEB_BURN = N_("Burn {building}")
# Translators: The web board's page (a browser, or the board inside Discord): under a building. {coins}: its price in
# words, '3 coins'.
WEB_COST = N_("cost {coins}")
# Translators: The web board's page (a browser, or the board inside Discord): a cell's name for screen readers.
# {crowns}: a number.
WEB_CELL = N_("{cell}: {terrain}, crowns: {crowns}")
# Translators: The web board's page (a browser, or the board inside Discord): a kingdom's heading.
WEB_KINGDOM_OF = N_("Kingdom of {name}")
# Translators: The web board's page (a browser, or the board inside Discord): an empty seat at a table.
WEB_SEAT_FREE = N_("free seat")
# Translators: The web board's page (a browser, or the board inside Discord): a variant's name in the new-table form.
WEB_VARIANT_NAMES = {"three-player-four-dominoes": N_("Three players with lines of four")}

# -- branch activity: the board as a Discord Activity, and its links (cogs/board.py, web/app.py) ----------------
# Translators: Button under the table: opens the live web board.
BUTTON_BOARD = N_("Open the board")
# Translators: A private reply, only the player who clicked or typed sees it: with a personal link to the board.
BOARD_LINK = N_(
    "Your own link to the board of this game: it works for {minutes} minutes and acts for you, so keep it to yourself."
)
# Translators: A private reply, only the player who clicked or typed sees it.
BOARD_UNAVAILABLE = N_(
    "The live board is not set up for this server (no Discord Activity and no public address): the pictures and "
    "buttons here do everything the board does."
)
# Translators: The description of the board's Activity in Discord's app launcher: at most 100 characters.
BOARD_ENTRY_POINT = N_("Open the live board of this channel's game")
# Translators: The web board's page (a browser, or the board inside Discord) inside Discord (an Activity): while it
# connects.
WEB_ACTIVITY_CONNECTING = N_("Connecting to Discord…")
# Translators: The web board's page (a browser, or the board inside Discord) inside Discord. {error}: Discord's error,
# in English.
WEB_ACTIVITY_FAILED = N_("Discord did not let the board in ({error}): close the board and open it again.")
# Translators: The web board: an error shown in the page's message strip (inside Discord).
WEB_ACTIVITY_OFF = N_("This board is not set up as a Discord Activity: use the pictures and buttons in the channel.")
# Translators: The web board: an error shown in the page's message strip (inside Discord).
WEB_ACTIVITY_REFUSED = N_("Discord did not confirm who you are: close the board and open it again.")
# Translators: The web board: an error shown in the page's message strip (inside Discord).
WEB_ACTIVITY_ELSEWHERE = N_(
    "Discord does not show this board in that channel: open it from the table of the channel you are in."
)
# Translators: The web board: an error shown in the page's message strip (inside Discord). /game new is a command:
# keep it.
WEB_ACTIVITY_NO_GAME = N_("There is no game in this channel yet: start one with /game new, then open the board.")
# Translators: The web board: an error shown in the page's message strip.
WEB_NOT_YOURS = N_("This board is not open to you: open it from the game's table in Discord.")
# Translators: The web board's page opened from the link of a finished game: the whole page says only this.
WEB_LINK_GAME_OVER = N_("This game is over, so its links no longer open it: the final table is in Discord.")

# -- the post-game review on the board (web/review.py; its words and pictures are Discord's: REVIEW_…) ------------
# Translators: The web board's page (a browser, or the board inside Discord): the heading of the post-game review
# section.
WEB_REVIEW = N_("Review")  # the heading of the board's section with the post-game review
# Translators: The web board's page (a browser, or the board inside Discord): the review is being worked out.
WEB_REVIEW_WORKING = N_(
    "The review is being worked out: a few minutes of thinking, after every game's moves. It shows here when it is "
    "ready."
)
# Translators: The web board's page (a browser, or the board inside Discord): the review's pictures are being drawn.
WEB_REVIEW_DRAWING = N_("The review is ready; its pictures are being drawn.")
# Translators: The web board's page (a browser, or the board inside Discord): an announcement for screen readers.
WEB_REVIEW_READY = N_("The review of the game is ready.")
# Translators: The web board: an error shown in the page's message strip.
WEB_REVIEW_NOT_YOURS = N_("A player sees their own review only: this one is another player's.")
# Translators: The web board: an error shown in the page's message strip.
WEB_REVIEW_NO_PICTURE = N_("There is no such review picture.")

# -- the engine's events and refusals (engine/game.py, engine/kingdom.py, engine/config.py) -------------------
# Keyed by the engine's `code`; placeholders are the engine's `params` names (engine/README.md, "Codes for
# translations"), except: `{n}` is the number a plural turns on (named in the comment), player ids become names,
# a building id its term, a direction its DIRECTIONS word, and lists are joined ("E4 and F4", "K3, K7").
# Translators: A move in the game's channel (the table message's latest moves) and /look history. {player}: the
# player's name in bold.
EVENTS = {
    "claimed": N_("{player} chose domino {domino}."),
    # Translators: {direction}: a direction word.
    "placed": N_("{player} placed domino {domino} on {cell}, second square {direction}."),
    # taxed: one knight (cells[0]) or two (cells[0], cells[1]); n = coins
    # Translators: {n}: the coins collected.
    "taxed_one": NP_(
        "{player} sent a knight to {cell} and collected {n} coin.",
        "{player} sent a knight to {cell} and collected {n} coins.",
    ),
    # Translators: {cell} and {second}: the two knights' cells; {n}: the coins collected.
    "taxed_two": NP_(
        "{player} sent 2 knights to {cell} and {second} and collected {n} coin.",
        "{player} sent 2 knights to {cell} and {second} and collected {n} coins.",
    ),
    # Translators: {n}: the building's price in coins.
    "built": NP_(  # n = cost
        "{player} built the {building} on {cell} for {n} coin.",
        "{player} built the {building} on {cell} for {n} coins.",
    ),
    # Translators: {n}: the kingdom's towers.
    "queen": NP_(  # n = towers
        "The queen moves to {player}'s kingdom ({n} tower).",
        "The queen moves to {player}'s kingdom ({n} towers).",
    ),
    # Translators: {slot}: the builders' board's slot, 1 to 6.
    "dragon": N_("{player} bribed the dragon, which burned the {building} (slot {slot})."),
    "discarded": N_("{player} could not place domino {domino}: it is discarded."),
    # Translators: The dominoes left in a line at the end of a round. {n}: how many.
    "unclaimed": NP_(  # n = how many dominoes
        "Nobody chose {dominoes}: it is discarded.", "Nobody chose {dominoes}: they are discarded."
    ),
    "round_end": N_("Round {round} is over."),
    # Translators: {next}: the next game, 2 or 3.
    "deal_end": N_("Game {finished} of the Dynasty is over; game {next} begins."),
    # game_over: one winner or several, with or without a tie-break (TIEBREAKS words)
    "game_over_one": N_("The game is over: {winners} wins."),
    "game_over_many": N_("The game is over: {winners} win."),
    "game_over_one_tiebreak": N_("The game is over: {winners} wins (tie-break: {tiebreak})."),
    "game_over_many_tiebreak": N_("The game is over: {winners} win (tie-break: {tiebreak})."),
}
# Translators: A refused move (private): what is wrong and what to do instead.
REFUSALS = {
    "game_over": N_("The game is over: no more moves."),
    "game_not_over": N_("The game is not over yet."),
    "not_your_turn": N_("It is not your turn."),
    # wrong_phase, must_place_first, cannot_skip: the step at hand, as DECISION_YOU words it (phase -> {what})
    # Translators: {what}: a DECISION_YOU clause ('place domino 23').
    "wrong_phase": N_("You must {what} first."),
    "must_place_first": N_("You must place domino {domino} first."),
    # Translators: {what}: a DECISION_YOU clause.
    "cannot_skip": N_("That step cannot be skipped: you must {what}."),
    # Translators: {free}: the free dominoes' numbers.
    "domino_taken": N_("That domino is already taken: choose a free one ({free})."),
    # Translators: {free}: the free dominoes' numbers.
    "domino_not_in_line": N_("That domino is not in the line: choose a free one ({free})."),
    # Translators: The English direction words are what is typed: keep them.
    "bad_direction": N_("Unknown direction {direction}: use up, right, down or left."),
    # Translators: The table here is the kingdom's grid (5x5 or 7x7), not the game's table message.
    "outside_table": N_("{cell} is outside the table."),
    # Translators: The table here is the kingdom's grid, not the game's table message.
    "outside_table_unnamed": N_("That cell is outside the table."),  # outside_table with cell null
    "cell_is_castle": N_("{cell} is the castle: both squares need empty cells."),
    "cell_taken": N_("{cell} is already taken: both squares need empty cells."),
    # Translators: {cells}: a number of cells; {size}: 5 or 7.
    "too_tall": N_("That would make the kingdom {cells} cells tall: it must fit in {size}x{size}."),
    # Translators: {cells}: a number of cells; {size}: 5 or 7.
    "too_wide": N_("That would make the kingdom {cells} cells wide: it must fit in {size}x{size}."),
    "not_connected": N_("That spot is not connected to the castle or to a square of the same terrain."),
    "tax_knight_count": N_("Send one or two knights, at most one on each square of the domino."),
    # Translators: {cells}: the two cells of the domino just placed.
    "tax_cells": N_("Knights go on the domino just placed: {cells}."),
    "knights_per_round": N_(
        "At most {limit} knights a round: you already sent {sent} this round, so you can send {left} more, not "
        "{wanted}."
    ),
    # Translators: {n}: the knights in reserve; {wanted}: how many were asked for.
    "knights_reserve": NP_(  # n = reserve
        "You have {n} knight in reserve, not {wanted}.", "You have {n} knights in reserve, not {wanted}."
    ),
    "empty_slot": N_("Slot {slot} of the builders' board holds no building: choose another."),
    "no_free_town": N_("You have no free town square to build on."),
    # Translators: {free}: the free town squares' cells.
    "not_free_town": N_("{cell} is not a free town square: build on {free}."),
    # Translators: {n}: the price; {coins}: the coins the player has.
    "not_enough_coins": NP_(
        "You need {n} coin, you have {coins}.", "You need {n} coins, you have {coins}."
    ),  # n = cost
    "dragon_flown": N_("The dragon has already flown this round: it is back in its cave at the end of the round."),
    "dragon_queen_host": N_("The queen's host may not bribe the dragon."),
    # Translators: {coins}: the coins the player has.
    "dragon_coins": N_("The dragon costs 1 coin; you have {coins}."),
    "dragon_no_building": N_("There is no building on the builders' board to burn."),
}
# Translators: Filled into {reason} of 'That table is not possible: {reason}' (a whole sentence).
CONFIG_REFUSALS = {  # ConfigError codes, shown after "That table is not possible:"
    "unknown_game": N_("Unknown game {game}."),
    # Translators: {players}: the number of players asked for.
    "player_count": N_("{game} takes {low}-{high} players, not {players}."),
    "duplicate_player": N_("Each player may take only one seat."),
    "unknown_variant": N_("Unknown variant {variant}."),
    "mighty_duel_players": N_("Mighty Duel is a Kingdomino variant for exactly 2 players."),
    "three_player_rule": N_("The rule of lines of 4 for 3 players is for Kingdomino with exactly 3 players."),
    "eight_need_teams": N_("Royal Wedding with 8 players is played in teams of 2 (individual games take 3-7)."),
    "teams_game": N_("Teams are played only in Royal Wedding (6 or 8 players)."),
    # Translators: {players}: the number of players asked for.
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
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right. `/game
# cancel` is a command: keep it. 'Manage Channels' is Discord's permission name.
UNREADABLE_HERE = N_(
    "The game in this channel cannot be read ({error}). The host or a member with Manage Channels can close it "
    "with `/game cancel`; that frees the channel for a new game. Other games are not affected."
)
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (undo).
UNDO_NOT_PLAYED = N_("This game is not being played any more: nothing can be taken back.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (undo).
# {name}: who played since.
UNDO_SOMEONE_ACTED = N_("{name} has acted since your last move, so it can no longer be taken back.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (undo).
UNDO_NOTHING = N_("You have no move to take back.")
# Translators: In the game's channel, everyone sees it: a player took their last move back.
UNDO_PUBLIC = N_("↩️ {name} took back their last move.")
# -- branch undo: undo never shows what was hidden; moves by the deadline; the computers' wait --------------------
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (undo).
UNDO_REVEALED = N_(
    "That can no longer be taken back: new dominoes or buildings came into view after it, and nobody may choose "
    "again knowing them."
)
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (undo):
# since your move, the deadline passed for another player and a computer played for them. {name}: that player.
UNDO_DEADLINE = N_("The turn deadline played for {name} since your last move, so it can no longer be taken back.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right (a server
# command in a direct message).
SERVER_ONLY = N_("This command is about a server's games: use it in a channel of the server.")
# Translators: A private refusal (only the clicker sees it): it says what is wrong and what would be right. {value}:
# what was typed; {choices}: the allowed choices.
NOT_A_CHOICE = N_("{value} is not a choice of {option}: pick one from the list ({choices}).")
# Translators: Button on the turn panel after a move: let the computer players answer now instead of waiting.
BUTTON_PLAY_ON = N_("Computers, play now")
# Translators: The private turn panel (only the player whose turn it is sees it): after a move, before the computers
# answer.
COMPUTERS_WAIT = N_("The computer players answer in {seconds} s: until then you can still take your move back.")
# Translators: In the game's channel, everyone sees it: the lobby message when nobody started the table in time. 'h'
# is hours.
LOBBY_EXPIRED = N_("⌛ Nobody started this table within {hours} h, so it is closed.")
# Translators: In the game's channel, everyone sees it: the table posted again after it could not be updated.
TABLE_AGAIN = N_("🔁 The table again, as it stands now.")
# -- the lobby's door (cogs/lobbyrules.py, cogs/service.py): every front end's lobby ------------------------------
# Translators: A private answer (Discord: ephemeral; the web board: its message strip) when the host hands their role
# to someone who is not seated at the table.
HOST_MUST_BE_SEATED = N_("Only a person seated at the table can become its host: pick one of them.")
# Translators: A private answer to the host after handing the role over. {host}: the new host (a Discord mention, or
# a seat's name on the web board).
HOST_HANDED = N_("{host} is the host now.")
# Translators: A private answer to the host after changing a computer player's level. {name}: the computer's name
# ("Bot 1 (hard)"); {level}: the level's word (easy, medium, hard).
COMPUTER_LEVEL_SET = N_("{name} now plays at the {level} level.")
# -- the board under attack (web/people.py, web/guard.py, web/streams.py, web/lobby.py) ------------------------------
# Translators: The web board: a page shown when a personal link is opened in a second browser. /play board is a
# command: keep it.
WEB_LINK_OTHER_BROWSER = N_(
    "This link was already opened in another browser, and it works in one only. Ask the bot for a new one with "
    "`/play board`."
)
# Translators: The web board: an error for a request that names another site's address (DNS rebinding).
WEB_OTHER_HOST = N_("This board answers only at its own address.")
# Translators: The web board: an error for programs calling the board. {depth}: a number (16).
WEB_BAD_BODY_DEPTH = N_("The request is nested too deeply: the board's requests are at most {depth} levels deep.")
# Translators: The web board: an error for programs calling the board.
WEB_BAD_BODY_NUMBER = N_("The request has a number the board cannot use: whole numbers and plain decimals only.")
# Translators: The web board: shown when the live connection is refused because the board is very busy; the page
# then updates itself every few seconds.
WEB_BUSY_STREAMS = N_("The board is very busy: this page will update every few seconds instead of at once.")
# Translators: The web board: the answer to /metrics for someone who may not read it.
WEB_METRICS_CLOSED = N_("The figures of this board are for its administrators.")
# Translators: The web board: an error in the page's message strip when a browser hosts the most open tables one
# person may. {n}: that number (10).
WEB_TOO_MANY_OF_YOURS = NP_(
    "You have {n} open table here, the most one person may: leave or cancel it (in your list) first.",
    "You have {n} open tables here, the most one person may: leave or cancel one of them (in your list) first.",
)

# -- running it for real (issue 48): what the bot keeps about a person, forgetting them, a clean restart ----------
# Translators: The name that replaces a forgotten person's name in every stored game (tables, logs, results,
# pictures): lowercase, it also stands inside sentences.
FORMER_PLAYER = N_("a former player")
# Translators: A line of the table message (in the channel) when a forgotten person's seat is taken by a computer.
PLAYER_REPLACED = N_("🤖 A player left this game for good: a computer player takes their seat.")
# Translators: A private answer to a click that arrives while the bot is stopping for a restart.
RESTARTING = N_("The bot is restarting: try again in a moment.")
# Translators: /settings my-data (private), with the file attached. /settings forget-me is a command: keep it.
MY_DATA_INTRO = N_(
    "What the bot keeps about you is in the attached file: your settings, the games you sit at (your seat, result "
    "and moves), the games you host and the notifications sent to you. `/settings forget-me` erases it."
)
# Translators: /settings my-data (private) when nothing is stored about the person.
MY_DATA_NOTHING = N_("The bot keeps nothing about you.")
# Translators: /settings forget-me (private): the question before the button that erases the person's data.
FORGET_ASK = N_(
    'This erases your settings and notification records and replaces your name with "a former player" in every '
    "stored game; in a game in play, a computer player takes your seat. The games and the other players' results "
    "stay. It cannot be undone."
)
# Translators: A button (at most 80 characters) under /settings forget-me's question.
FORGET_BUTTON = N_("Erase my data")
# Translators: The private answer once a person's data is erased (also on the web board). {n}: how many stored
# games named them.
FORGET_DONE = NP_(
    "Done: your settings and notification records are erased, and your name is gone from {n} stored game.",
    "Done: your settings and notification records are erased, and your name is gone from {n} stored games.",
)
# Translators: A private answer when someone clicks another person's erase button. /settings forget-me is a
# command: keep it.
FORGET_NOT_YOURS = N_(
    "This button erases the data of the person who asked for it, not yours: use `/settings forget-me`."
)
BUTTON_LABELS += [FORGET_BUTTON]

# -- the text grid (render/alt.py: an alt text's compact grid, `/look kingdom text:True`) -------------------------
# A letter per terrain, different from the other six in each language (English W F L G S M T meant nothing in
# Czech, where les and louka both start with L), and the castle's two letters; translate them with the context.
# Translators: One letter for this terrain in the text grid (/look kingdom text:True and alt texts, read by screen
# readers): an uppercase letter of its word in your language, different from the other six terrains' letters. The
# legend beside the grid names each letter.
GRID_LETTERS = {
    "wheat": N_("W", context="grid:wheat"),
    "forest": N_("F", context="grid:forest"),
    "lake": N_("L", context="grid:lake"),
    "grassland": N_("G", context="grid:grassland"),
    "swamp": N_("S", context="grid:swamp"),
    "mine": N_("M", context="grid:mine"),
    "town": N_("T", context="grid:town"),
}
# Translators: The castle's two letters in the text grid (/look kingdom text:True): two uppercase letters of your word
# for castle; a cell is always two characters wide.
GRID_CASTLE = N_("CC", context="grid:castle")

# -- the board's page before its script runs: web/app.py serves index.html with the reader's `lang`, the page's title
# (WEB_APP_TITLE), the language menu's label (WEB_LANGUAGE), the home link's name (WEB_BACK) and this sentence.
# Translators: The web board's page when the browser runs no JavaScript (inside <noscript>): the only thing the page
# shows. One or two sentences.
WEB_NOSCRIPT = N_(
    "The board needs JavaScript: allow it for this page, or play with the pictures and buttons in Discord."
)

# -- the rules page (web/rules.py, cogs/rulebook.py; docs/rules.md is made from these English sentences) --------------
# The rules of each game, read by a person who has never played: a one-screen summary, then the whole rules. Each
# entry is one paragraph or one list item; the page puts the pieces' pictures beside them. Use the glossary's words:
# a reader learns the game from this page alone.
# Translators: The web board's header: the link that opens the rules of the game on the screen (an icon beside it; on
# a phone only screen readers hear it). One short word.
WEB_RULES = N_("Rules")
# Translators: The rules page (a web page of the board): its title and main heading.
RULES_PAGE_TITLE = N_("{game}: the rules")
# Translators: The rules page opened with no game: the heading over the three games to choose from.
RULES_CHOOSE = N_("The rules of which game?")
# Translators: The rules page: the link back to the board's table it was opened from (for screen readers; an icon).
RULES_BACK = N_("Back to the table")
# Translators: The rules page: the heading of the list of its sections (links).
RULES_CONTENTS = N_("Contents")
# Translators: The rules page: before the facts of the table it was opened from ('4 players', '5×5', '12 rounds').
RULES_AT_TABLE = N_("At this table")
# Translators: The rules page: how many people play a game, like '2-4 players'.
RULES_PLAYER_RANGE = N_("{low}-{high} players")
# Translators: The rules page: a fact of the table, '12 rounds'.
RULES_ROUNDS = NP_("{n} round", "{n} rounds")
# Translators: The rules page: a fact of the table with 2 players: each player has 2 kings.
RULES_KINGS_EACH = NP_("{n} king each", "{n} kings each")
# Translators: The rules page: a fact of a Royal Wedding table played in teams.
RULES_IN_TEAMS = N_("in teams of two")
# Translators: The rules page: the links to the same rules in the other languages follow (each in its own name).
RULES_OTHER_LANGUAGES = N_("In other languages")
# Translators: The rules page: the links to the rules of the other games follow.
RULES_OTHER_GAMES = N_("The other games")
# Translators: The rules page opened for a game that does not exist (an old or mistyped link): said above the three
# games to choose from.
RULES_BAD_GAME = N_("There are no rules for “{typed}”: choose Kingdomino, Queendomino or Royal Wedding.")
# Translators: Discord, under the private /rules summary: a link button to the whole rules on the web board, in the
# reader's language.
RULES_LINK_BUTTON = N_("The whole rules, with pictures")
BUTTON_LABELS += [RULES_LINK_BUTTON]

# Translators: The rules page: the headings of its sections, in this order.
RULES_HEADINGS = {
    "summary": N_("In short"),
    "words": N_("The pieces"),
    "setup": N_("Set-up"),
    "first": N_("The first round"),
    "turn": N_("A turn"),
    "placing": N_("Placing a domino"),
    "buildings": N_("Buildings, towers and the queen"),
    "round_end": N_("End of a round"),
    "scoring": N_("Scoring"),
    "end": N_("End of the game and ties"),
    "variants": N_("Variants"),
}

# The summary: one screen on a phone, each item beside a picture.
# Translators: The rules page's summary (Kingdomino): what the game is about.
RULES_SUM_GOAL = N_(
    "Each domino has two squares of land, some with crowns. Add dominoes around your castle to build large "
    "territories that hold many crowns."
)
# Translators: The rules page's summary (Queendomino): what the game is about.
RULES_SUM_GOAL_Q = N_(
    "Each domino has two squares of land, some with crowns. Around your castle, build large territories rich in crowns,"
    " and buildings on your town squares."
)
# Translators: The rules page's summary (Royal Wedding): what the game is about.
RULES_SUM_GOAL_RW = N_(
    "Queendomino with the dominoes of both boxes: one line from each box in turn. With 6 or 8 players, teams of two "
    "may share a kingdom."
)
# Translators: The rules page's summary (Kingdomino): a turn.
RULES_SUM_TURN = N_(
    "Each round the kings play in the order of the line, lowest number first. On your turn, place the domino under "
    "your king in your kingdom, then put your king on a free domino of the next line: a high number often has more "
    "crowns but plays later."
)
# Translators: The rules page's summary (Queendomino, Royal Wedding): a turn.
RULES_SUM_TURN_Q = N_(
    "The kings play in the order of the line, lowest number first. On your turn, place the domino under your king, take"
    " the optional steps below, then put your king on a free domino of the next line."
)
# Translators: The rules page's summary (Queendomino, Royal Wedding): the optional steps of a turn.
RULES_SUM_STEPS = N_(
    "Optional, in this order: send knights onto the domino just placed to collect tax; build a building of the "
    "builders' board on a town square; pay 1 coin for the dragon to burn a building of the board."
)
# Translators: The rules page's summary (Queendomino, Royal Wedding): the queen.
RULES_SUM_QUEEN = N_(
    "The kingdom with the most towers hosts the queen: it builds for 1 coin less and she is one more crown at the "
    "end, but it may not bribe the dragon."
)
# Translators: The rules page's summary: where a domino may go. {size}: the kingdom's side at this table, 5 or 7.
RULES_SUM_PLACE = N_(
    "A domino must touch your castle or a square of the same terrain, and your whole kingdom must fit in "
    "{size}×{size}. A domino that fits nowhere is discarded."
)
# Translators: The rules page's summary, for no table in particular: where a domino may go.
RULES_SUM_PLACE_ANY = {
    "kingdomino": N_(
        "A domino must touch your castle or a square of the same terrain, and your whole kingdom must fit in 5×5 "
        "(7×7 in Mighty Duel). A domino that fits nowhere is discarded."
    ),
    "queendomino": N_(
        "A domino must touch your castle or a square of the same terrain, and your whole kingdom must fit in 5×5 "
        "(7×7 with 2 players). A domino that fits nowhere is discarded."
    ),
    "royal-wedding": N_(
        "A domino must touch your castle or a square of the same terrain, and your whole kingdom must fit in 7×7 "
        "(5×5 with 5 to 7 players). A domino that fits nowhere is discarded."
    ),
}
# Translators: The rules page's summary (Kingdomino): the score.
RULES_SUM_SCORE = N_(
    "At the end each territory, a group of squares of one terrain joined by their sides, is worth its squares times "
    "its crowns. The highest score wins."
)
# Translators: The rules page's summary (Queendomino, Royal Wedding): the score.
RULES_SUM_SCORE_Q = N_(
    "At the end each territory is worth its squares times its crowns (a town's crowns are its buildings'), plus the "
    "buildings' points and 1 point per 3 coins. The highest score wins."
)

# The whole rules, section by section.
# Translators: The rules page, 'The pieces': a domino.
RULES_WORDS_DOMINO = N_("A domino has two squares; each square shows a terrain and 0 to 3 crowns.")
# Translators: The rules page, 'The pieces': a territory and a kingdom.
RULES_WORDS_TERRITORY = N_(
    "A territory is a group of squares of one terrain joined by their sides. Your kingdom is your castle and the "
    "dominoes you added to it; it may hold several territories of one terrain."
)
# Translators: The rules page, 'The pieces': the castle.
RULES_WORDS_CASTLE = N_("The castle is no terrain: it joins no territory and is worth nothing.")
# Translators: The rules page, 'The pieces': a line of dominoes.
RULES_WORDS_LINE = N_("A line is the row of dominoes drawn for a round, always sorted by number, lowest first.")
# Translators: The rules page, 'Set-up': the headings of the table of set-ups, one row per number of players. Short:
# a phone shows the seven columns side by side.
RULES_SETUP_COLUMNS = {
    "players": N_("Players"),
    "dominoes": N_("Dominoes"),
    "line": N_("Per line"),
    "kings": N_("Kings each"),
    "kingdom": N_("Kingdom"),
    "rounds": N_("Rounds"),
    "left": N_("Discarded per round"),
}
# Translators: The rules page, the set-up table: how many dominoes a game uses, '24 of 48' (drawn at random from the
# box). {used}: the dominoes used; {total}: the dominoes in the box.
RULES_DOMINOES_OF = N_("{used} of {total}")
# Translators: The rules page, the set-up table: a row of Royal Wedding in teams, '6 in teams'. {n}: 6 or 8 players.
RULES_ROW_TEAMS = N_("{n} in teams")
# Translators: The rules page, the set-up table: the row of Kingdomino's Mighty Duel ('2, Mighty Duel'). {n}: 2.
# {variant}: the variant's name.
RULES_ROW_VARIANT = N_("{n}, {variant}")
# Translators: The rules page, the set-up table: the row of Board Game Arena's rule for 3 players. {n}: 3.
RULES_ROW_LINES_OF_FOUR = N_("{n}, lines of 4")
# Translators: The rules page, 'Set-up'.
RULES_SETUP_CASTLE = N_("Every kingdom starts with its castle alone.")
# Translators: The rules page, 'Set-up' (Kingdomino with 2 or 3 players).
RULES_SETUP_ASIDE = N_("With 2 or 3 players the dominoes are drawn at random; the others are set aside unseen.")
# Translators: The rules page, 'Set-up' (Queendomino, Royal Wedding).
RULES_SETUP_BUILDINGS = N_(
    "The 32 buildings are shuffled into a face-down stack, and 6 are turned face up onto the builders' board, whose "
    "slots cost 5, 4, 3, 2, 1 and 0 coins."
)
# Translators: The rules page, 'Set-up' (Queendomino, Royal Wedding).
RULES_SETUP_DRAGON = N_("The dragon waits in its cave and the queen beside the board: nobody hosts her yet.")
# Translators: The rules page, 'Set-up' (Queendomino, Royal Wedding).
RULES_SETUP_KNIGHTS = N_(
    "Each kingdom gets 1 knight and 7 coins. The supply holds 22 knights and 15 towers; coins never run out."
)
# Translators: The rules page, 'The first round'.
RULES_FIRST_LINE = N_(
    "A line is drawn, sorted by number and turned face up. The kings are drawn in a random order; in that order each "
    "king's player puts it on a free domino of the line, one king per domino."
)
# Translators: The rules page, 'The first round' (Kingdomino with 2 players).
RULES_FIRST_TWO = N_("With 2 players all four kings are drawn together, so one player may put both of theirs first.")
# Translators: The rules page, 'The first round' (Queendomino with 2 players).
RULES_FIRST_TWO_Q = N_(
    "With 2 players one king is drawn at random and put first; then the other player puts both of theirs, and the "
    "first player puts the last king."
)
# Translators: The rules page, 'The first round'.
RULES_FIRST_NEXT = N_("Then the next line is drawn beside it, sorted and face up.")
# Translators: The rules page, 'A turn'.
RULES_TURN_ORDER = N_(
    "Each round the kings play in the order of the current line: the king on the lowest number first."
)
# Translators: The rules page, 'A turn' (Kingdomino): the first of two numbered items. “Placing a domino” is the
# heading of another section of the page: use your translation of it.
RULES_TURN_PLACE = N_(
    "Place the domino under your king in your kingdom (see “Placing a domino”); discard it when, and only when, it "
    "fits nowhere."
)
# Translators: The rules page, 'A turn' (Kingdomino): the second numbered item.
RULES_TURN_CHOOSE = N_(
    "Put your king on a free domino of the next line: that sets the order of the next round. In the last round there "
    "is no next line, so this is skipped."
)
# Translators: The rules page, 'A turn' (Kingdomino with 2 players).
RULES_TURN_TWO_KINGS = N_("With 2 players each king has a turn of its own, so you may play twice in a row.")
# Translators: The rules page, 'A turn' (Kingdomino).
RULES_TURN_NEXT_LINE = N_("When every king has played, the next line is drawn.")
# Translators: The rules page, 'A turn' (Queendomino, Royal Wedding): before the list of the steps A to E.
RULES_TURN_STEPS = N_("A turn has five steps, in this order; A and E are compulsory, B, C and D optional:")
# Translators: The rules page, 'A turn' (Queendomino, Royal Wedding): the steps A to E, each with its letter.
# “Placing a domino” is the heading of another section of the page.
RULES_TURN_Q = {
    "place": N_(
        "A. Place the domino under your king in your kingdom (see “Placing a domino”), or discard it if it fits "
        "nowhere."
    ),
    "tax": N_(
        "B. Tax: send 1 or 2 knights from your reserve onto the domino just placed, one per square. Each knight "
        "collects as many coins as its territory has squares. Knights stay until the end of the game; a kingdom "
        "sends at most 2 knights a round."
    ),
    "build": N_(
        "C. Build: choose a building on the builders' board, pay its slot's cost and put it on a town square of your "
        "kingdom that has no building yet. The slot stays empty until the end of the round."
    ),
    "dragon": N_(
        "D. Dragon: if the dragon is in its cave and you do not host the queen, pay 1 coin to have it burn a building "
        "of the builders' board; that building leaves the game. The dragon stays on its slot until the end of the "
        "round, so it flies at most once a round."
    ),
    "claim": N_("E. Choose a free domino of the next line for your king (not in the last round)."),
}
# Translators: The rules page, 'A turn' (Queendomino with 2 players).
RULES_TURN_TWO_Q = N_("With 2 players you take steps A to E for each of your kings, so twice a round.")
# Translators: The rules page, 'A turn' (Queendomino, Royal Wedding).
RULES_TURN_DISCARD = N_(
    "After a discard there is no tax, since nothing was placed, but you may still build, bribe the dragon and choose "
    "your next domino."
)
# Translators: The rules page, 'Placing a domino': its rules, one list item each.
RULES_PLACE_TURN = N_("Turn the domino as you like: across or upright, either square first.")
# Translators: The rules page, 'Placing a domino'.
RULES_PLACE_EMPTY = N_("Both squares go on empty cells.")
# Translators: The rules page, 'Placing a domino'.
RULES_PLACE_TOUCH = N_(
    "At least one of its squares touches, side to side, your castle (which goes with every terrain) or a square of "
    "the same terrain."
)
# Translators: The rules page, 'Placing a domino'. {size}: the kingdom's side at this table, 5 or 7.
RULES_PLACE_FIT = N_(
    "Afterwards the whole kingdom, castle included, must fit within {size}×{size}. Your castle need not be in the "
    "middle."
)
# Translators: The rules page, 'Placing a domino', for no table in particular.
RULES_PLACE_FIT_ANY = N_(
    "Afterwards the whole kingdom, castle included, must fit within 5×5, or 7×7 where the set-up says so. Your "
    "castle need not be in the middle."
)
# Translators: The rules page, 'Placing a domino'.
RULES_PLACE_DISCARD = N_(
    "A domino that fits nowhere is discarded and missing at the end; a domino that fits somewhere may never be "
    "discarded."
)
# Translators: The rules page, 'Placing a domino': under a picture where a new domino's forest square touches a
# forest.
RULES_FIGURE_YES = N_("Yes: the forest touches a forest.")
# Translators: The rules page, 'Placing a domino': under a picture where a new domino (a swamp and a mine) touches only
# a wheat field and a lake.
RULES_FIGURE_NO = N_("No: neither square touches the castle or a square of its own terrain.")
# Translators: The rules page, 'Scoring'.
RULES_SCORE_TERRITORY = N_(
    "Each territory is worth its squares times its crowns; a territory without a crown is worth nothing. Several "
    "territories of one terrain each count on their own."
)
# Translators: The rules page, 'Scoring': before a pictured kingdom and what each of its territories is worth.
RULES_SCORE_EXAMPLE = N_("For example, this kingdom:")
# Translators: The rules page, 'Scoring': what one territory of the pictured kingdom is worth, '3 × 2 = 6'. {squares}:
# its squares; {crowns}: its crowns; {points}: their product.
RULES_SCORE_LINE = N_("{terrain}: {squares} × {crowns} = {points}")
# Translators: The rules page, 'Scoring': the pictured kingdom's total.
RULES_SCORE_TOTAL = NP_("In all: {n} point", "In all: {n} points")
# Translators: The rules page, 'Scoring' (Queendomino, Royal Wedding).
RULES_SCORE_COINS = N_("Coins: 1 point per 3 coins.")
# Translators: The rules page, 'Scoring' (Queendomino, Royal Wedding).
RULES_SCORE_TOWN = N_(
    "Town squares carry no printed crowns: a town territory's crowns are those of the buildings standing in it."
)
# Translators: The rules page, 'Scoring' (Queendomino, Royal Wedding).
RULES_SCORE_QUEEN = N_(
    "The kingdom that hosts the queen at the end puts her on its largest territory, of any terrain, where she is one "
    "more crown."
)
# Translators: The rules page, 'Scoring' (Queendomino, Royal Wedding).
RULES_SCORE_BUILDINGS = N_(
    "Each building adds the points it shows: a fixed number; or 2 points per separate territory of its terrain; or 1 "
    "point per tower in the kingdom; or 1 point per knight owned, in the kingdom or the reserve."
)
# Translators: The rules page, 'Buildings, towers and the queen'.
RULES_BUILD_KNIGHTS = N_(
    "Some buildings bring knights into your reserve when you build them; you may send them from your next turn."
)
# Translators: The rules page, 'Buildings, towers and the queen'.
RULES_BUILD_TOWERS = N_(
    "Some buildings come with towers, set on them. As soon as your kingdom has the most towers of all, ties "
    "included, the queen comes to you."
)
# Translators: The rules page, 'Buildings, towers and the queen'.
RULES_BUILD_QUEEN = N_(
    "While you host the queen, every building costs you 1 coin less (never below 0), and you may not bribe the dragon."
)
# Translators: The rules page, 'Buildings, towers and the queen'. {guardhouse} and {treasury}: the two buildings'
# names (term:building.fortified_guardhouse, term:building.treasury), as the subject of their clause.
RULES_BUILD_TAX = N_(
    "Two buildings raise every tax you collect: the {guardhouse} by 1 coin per knight you own, the {treasury} by 1 "
    "coin per tower in your kingdom."
)
# Translators: The rules page, 'Buildings, towers and the queen'.
RULES_BUILD_CROWN = N_("A building with a crown adds that crown to the town territory it stands in.")
# Translators: The rules page, 'End of a round' (Queendomino, Royal Wedding).
RULES_ROUND_DRAGON = N_("The dragon goes back to its cave.")
# Translators: The rules page, 'End of a round' (Queendomino, Royal Wedding).
RULES_ROUND_SLIDE = N_(
    "The buildings left on the builders' board slide toward the cheapest slots, keeping their order, and the empty "
    "slots are refilled from the stack while it lasts."
)
# Translators: The rules page, 'End of a round' (Queendomino, Royal Wedding): the set-up's table has a column of
# these ('Discarded per round').
RULES_ROUND_LEFT = N_("The dominoes nobody chose, if any are left on the line, are discarded.")
# Translators: The rules page, 'End of a round' (Queendomino, Royal Wedding).
RULES_ROUND_NEXT = N_("The next line is drawn.")
# Translators: The rules page, 'End of the game and ties'.
RULES_END_LAST = N_("The game ends after the last round, when every kingdom has placed or discarded its last domino.")
# Translators: The rules page, 'End of the game and ties' (Kingdomino).
RULES_END_TIES = N_(
    "The highest score wins. A tie goes to the largest territory, then to the most crowns in all; if still tied, the "
    "players share the win."
)
# Translators: The rules page, 'End of the game and ties' (Queendomino, Royal Wedding).
RULES_END_TIES_Q = N_(
    "The highest score wins. A tie goes to the largest territory, then to the most coins left over after the "
    "3-for-1 conversion; if still tied, the players share the win."
)
# Translators: The rules page, 'Variants', for no table in particular: before the list of variants.
RULES_VARIANTS_ANY = N_("A table may add any of these variants:")
# Translators: The rules page, 'Variants', opened from a table: before the list of its variants.
RULES_VARIANTS_TABLE = N_("This table plays with:")
# Translators: The rules page, 'Variants', opened from a table that plays none.
RULES_VARIANTS_NONE = N_("This table plays without a variant.")
# Translators: The rules page, 'Variants': what each variant changes, after its name.
RULES_VARIANT_TEXT = {
    "dynasty": N_(
        "Three games in a row; the highest sum of the three scores wins. A tie goes to the largest territory of the "
        "last game, then to its crowns (Kingdomino) or its leftover coins (Queendomino, Royal Wedding)."
    ),
    "middle-kingdom": N_(
        "+10 points when your castle is the centre of your kingdom: every square lies within 2 cells of it (3 in a "
        "kingdom of 7×7), both across and down. Gaps are allowed."
    ),
    "harmony": N_(
        "+5 points when none of your dominoes was discarded. Dominoes left unclaimed on a line do not count, nor do "
        "gaps alone."
    ),
    "mighty-duel": N_("Kingdomino with 2 players: all 48 dominoes, kingdoms of 7×7, 12 rounds."),
    "three-player-four-dominoes": N_(
        "Kingdomino with 3 players, as Board Game Arena plays it: all 48 dominoes in lines of 4; the domino left "
        "unclaimed is discarded each round."
    ),
}
# Translators: The rules page, 'Royal Wedding': its section, one list item each.
RULES_RW = {
    "boxes": N_(
        "Queendomino's rules with both boxes of dominoes, each shuffled on its own. The lines come from the two boxes "
        "in turn, Queendomino first."
    ),
    "numbers": N_(
        "Numbers are printed per box, so a domino is named by its box and number (Q12, K12), and each line is sorted "
        "within itself."
    ),
    "teams": N_(
        "Teams of two (6 or 8 players) share one castle and kingdom, one starting knight and 7 coins, their reserve, "
        "coins and score; team scores are compared."
    ),
    "team_play": N_(
        "In a team each player has a king of their own and decides for it, and may spend the team's knights and coins."
    ),
}
# -- issue 46: the board teaches and gathers (the game list, the lobby on the board, the first-game guide, tips that
# say why, a hint, Queendomino's steps, the computers' wait) ------------------------------------------------------
# Translators: The web board's list of games: an open table the reader does not sit at. {taken}: seats taken; {size}:
# the table's seats.
WEB_LIST_OPEN = N_("Open table: {taken} of {size} seats taken.")
# Translators: The web board's list of games and lobby: a table the reader opened, not started yet. {taken}: seats
# taken; {size}: the table's seats.
WEB_LIST_YOUR_TABLE = N_("Your table: {taken} of {size} seats taken.")
# Translators: The web board's list of games and lobby: the reader sits at a table its host has not started. {host}:
# the host's name.
WEB_WAITING_FOR_HOST = N_("Waiting for {host} to start the game.")
# Translators: The web board's lobby, for its host: the table can start (more people may still take a seat).
WEB_LOBBY_READY = N_("The table can start: start the game when everyone is here.")
# Translators: The web board's lobby: a team's heading above its two seats (Royal Wedding). {number}: 1, 2, 3...
WEB_TEAM = N_("Team {number}")
# Translators: The web board's lobby: after the name of the person who opened the table (one word, lower case): the
# table's host, not the queen's.
WEB_HOST = N_("host", context="lobby")
# Translators: The web board's lobby: the name (for screen readers) of the menu of a computer player's level. {name}:
# its name, like 'Bot 1 (easy)'.
WEB_LEVEL_OF = N_("Level of {name}")
# Translators: The web board's lobby: the name (for screen readers) of the button that takes a computer player away.
WEB_REMOVE = N_("Remove {name}")
# Translators: The web board's lobby: the name (for screen readers) of a button that moves a seat up (teams).
WEB_MOVE_UP = N_("Put {name} one seat up")
# Translators: The web board's lobby: the name (for screen readers) of a button that moves a seat down (teams).
WEB_MOVE_DOWN = N_("Put {name} one seat down")
# Translators: The web board's lobby: a button (the host seats a computer player of the level chosen beside it).
WEB_ADD_COMPUTER = N_("Add a computer player")
# Translators: The web board's lobby: a button (the reader leaves their seat before the start).
WEB_LEAVE = N_("Leave the table")
# Translators: The web board's lobby: a button (the host ends the table before the start).
WEB_CANCEL_TABLE = N_("Cancel the table")
# Translators: The web board: the whole page of a table that was cancelled or that nobody started in time.
WEB_TABLE_CLOSED = N_("This table is closed.")
# Translators: The web board's new-table form: a checkbox. "Show me a good move" is the hint's button.
WEB_HINTS_OPTION = N_('Hints ("Show me a good move"): the game is then not rated')
# Translators: The web board's lobby and the lobby message in Discord's channel, at a table opened with hints (the
# web board's "Show me a good move").
WEB_HINTS_TABLE = N_("Hints are on at this table: anyone may ask for a good move, so the game is not rated.")
# Translators: The web board: the tip under the turn while placing. {size}: 5 or 7.
WEB_TIP_PLACE = N_(
    "Tap a marked square, rotate, then confirm: a domino must touch your castle or a square of the same terrain, "
    "and your kingdom must fit in {size}x{size}."
)
# Translators: The web board: the tip under the turn while choosing the next domino.
WEB_TIP_CLAIM = N_(
    "Tap a free domino of the next line: the nearer the top, the sooner you play next round; the further down, the "
    "more it is usually worth."
)
# Translators: The web board: the tip under the turn while choosing a domino of the first line.
WEB_TIP_FIRST_CLAIM = N_(
    "Tap a free domino of the first line: you place it in round 1, and the nearer the top, the sooner you play."
)
# Translators: The web board: the tip under the turn at the tax step (Queendomino).
WEB_TIP_TAX = N_(
    "Tap a square of the domino you just placed to send a knight there: it collects a coin for each square of that "
    "territory. Or skip."
)
# Translators: The web board: the tip under the turn at the build step (Queendomino).
WEB_TIP_BUILD = N_(
    "Tap a building you can afford, then a free town square to build it on: buildings bring crowns, knights, towers "
    "or points. Or skip."
)
# Translators: The web board: the tip under the turn at the dragon step (Queendomino).
WEB_TIP_DRAGON = N_("Tap a building for the dragon to burn (1 coin): nobody can build it any more. Or skip.")
# Translators: The web board's first-game guide: its name (for screen readers), and its heading outside the numbered
# steps.
WEB_GUIDE_LABEL = N_("First-game guide")
# Translators: The web board's first-game guide: its heading, which of the first turn's three taps it shows.
# {step}: 1, 2 or 3; {steps}: 3.
WEB_GUIDE_TITLE = N_("First game: {step} of {steps}")
# Translators: The web board's first-game guide: a button.
WEB_GUIDE_SKIP = N_("Skip the guide")
# Translators: The web board's first-game guide, when choosing a domino of the first line.
WEB_GUIDE_WELCOME = N_(
    "Welcome! Tap a domino of the first line to put your king on it: it is the first domino you place, and the "
    "nearer the top, the sooner you play."
)
# Translators: The web board's first-game guide, step 1 (choose a spot). {size}: 5 or 7.
WEB_GUIDE_SPOT = N_(
    "Choose a spot: tap a marked square for the domino's first square. A domino must touch your castle or a square "
    "of the same terrain, and your kingdom must fit in {size}x{size}."
)
# Translators: The web board's first-game guide, step 2 (confirm).
WEB_GUIDE_CONFIRM = N_(
    "Rotate until the domino lies as you like, then confirm: the button says how many points it brings."
)
# Translators: The web board's first-game guide, step 3 (claim the next domino).
WEB_GUIDE_NEXT = N_(
    "Take your next domino: tap a free domino of the next line. The nearer the top, the sooner you play next round."
)
# Translators: The web board's first-game guide, at Queendomino's first tax step.
WEB_GUIDE_TAX = N_(
    "Tax: send a knight to a square of the domino you just placed (a marked button): it collects a coin for each "
    "square of that territory. Or skip."
)
# Translators: The web board's first-game guide, at Queendomino's first build step.
WEB_GUIDE_BUILD = N_(
    "Build: tap a marked building you can afford, then a free town square in your kingdom. Each building brings "
    "crowns, knights, towers or points. Or skip."
)
# Translators: The web board's first-game guide, at Queendomino's first dragon step.
WEB_GUIDE_DRAGON = N_(
    "The dragon: for 1 coin it burns a building of the builders' board (a marked one), so nobody can build it. Or skip."
)
# Translators: The web board: a small word on a building the reader can build now.
WEB_SLOT_BUILD = N_("Build")
# Translators: The web board: a small word on a building the dragon would burn at the reader's dragon step.
WEB_SLOT_BURN = N_("Burn with the dragon")
# Translators: The web board: a building's button name (for screen readers) at the dragon step.
WEB_BURN_WITH_DRAGON = N_("Burn {building} with the dragon")
# Translators: The web board: the button that confirms the dragon's burn, beside the building tapped.
WEB_BURN_CONFIRM = N_("Confirm: the dragon burns {building} (1 coin)")
# Translators: The web board: while the computer players wait (a person may still take their move back). {seconds}:
# a whole number.
WEB_COMPUTERS_WAIT = N_("The computer players play in {seconds} s.")
# Translators: The web board: after the computers' wait, while they play.
WEB_COMPUTERS_PLAYING = N_("The computer players are playing…")
# Translators: The web board: beside the computers' countdown, for the person who moved.
WEB_WAIT_UNDO = N_("Until then you can still take your move back.")
# Translators: The web board: the hint's button on the reader's turn.
WEB_HINT_BUTTON = N_("Show me a good move")
# Translators: The web board: while the hint is being worked out.
WEB_HINT_WORKING = N_("The hard computer player is thinking about your move…")
# Translators: The web board: the hint. {move}: the move in the review's words, like 'domino 23 on C4, right' or
# 'claim domino 17'.
WEB_HINT_MOVE = N_("A good move, as the hard computer player sees it: {move}.")
# Translators: The web board: what the hint's move gains. {score}: a decimal number; {points}: like '3.2 points'.
WEB_HINT_GAIN = N_("On average you end the game with {score} points after it, {points} more than after another move.")
# Translators: The web board: what the hint's move gains, when it is about as good as the others. {score}: a decimal.
WEB_HINT_EVEN = N_("On average you end the game with {score} points after it, about as many as after another move.")
# Translators: The web board: the hint when there is one move only. {score}: a decimal number.
WEB_HINT_ONLY = N_("It is the only move here: on average you end the game with {score} points.")
# Translators: The web board: an error shown in the page's message strip (a hint asked for at a table without them).
WEB_HINT_OFF = N_(
    "Hints are off at this table: a table has them when it is opened with hints (the game is then not rated), or "
    "when every other seat is a computer player on this board."
)
# Translators: The web board: an error shown in the page's message strip.
WEB_HINT_NOT_YOUR_TURN = N_("A hint is for your own turn: wait until it is your move.")
# Translators: The web board: an error shown in the page's message strip.
WEB_HINT_NOT_PLAYING = N_("There is no move to suggest: this game is not being played.")
# Translators: The web board: an error shown in the page's message strip.
WEB_HINT_BUSY = N_("Your other hint is still being worked out: try again in a moment.")
# Translators: The web board: shown when the hint could not be worked out.
WEB_HINT_FAILED = N_("The hint could not be worked out; it has been logged.")
# Translators: The web board's lobby: its heading for a person who did not open the table. {taken}: seats taken;
# {size}: the table's seats.
WEB_LOBBY_SEATS = N_("{taken} of {size} seats taken.")
# -- a person leaving a local game in play (cogs/lobbydoor.py abandon_seat; the web board's Leave the game) --------
# Translators: A line of the table (everyone sees it) when a person left a game in play for good. {name}: their name;
# {bot}: the computer player who takes their seat ("Bot 2 (medium)").
PLAYER_LEFT_GAME = N_("🚪 {name} left the game: {bot} plays their seat from now on.")
# Translators: The web board: the answer to the person who left a game in play. {bot}: the computer player who takes
# their seat.
YOU_LEFT_GAME = N_("You left the game: {bot} plays your seat from now on.")
# Translators: The web board: the answer to the last person who leaves a game in play: nobody is left, so it ends.
LEFT_GAME_ENDED = N_("You left the game; nobody else was playing it, so it has ended.")
# Translators: The web board: a button under a game in play (local tables): the person leaves the game for good and a
# computer player takes their seat.
WEB_LEAVE_GAME = N_("Leave the game")
# Translators: The web board: the question before leaving a game in play (a browser's yes/no dialog).
WEB_LEAVE_GAME_ASK = N_("Leave this game for good? A computer player takes your seat and the game goes on.")
# Translators: The web board: the question before the host cancels a game in play (a browser's yes/no dialog).
WEB_CANCEL_GAME_ASK = N_("Cancel this game for everyone at the table? It cannot be undone.")
# Translators: The web board: the heading of the panel with the buttons to leave or cancel a game in play.
WEB_THIS_TABLE = N_("This table")
