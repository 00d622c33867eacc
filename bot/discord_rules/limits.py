"""Discord's limits on what a bot sends, once: the checks of this package (the test edge and ``python -m bot check``)
and the bot's own code (the cuts, the splits, the pages) read them here, so the two cannot disagree.

From Discord's developer documentation (https://discord.com/developers/docs): "Resources > Message" (create
message), "Resources > Message > Embed Limits", "Components > Reference" (action rows, buttons, selects, text
inputs, labels, text displays), "Interactions > Receiving and Responding" (modals, autocomplete, tokens),
"Interactions > Application Commands" and "Resources > Channel" (start thread).
"""
from __future__ import annotations

# ---- a message --------------------------------------------------------------------
MESSAGE_CONTENT = 2000  # characters of a message's content
EMBEDS = 10  # embeds in one message
ATTACHMENTS = 10  # attachments in one message
ATTACHMENT_DESCRIPTION = 1024  # an attachment's description (its alt text)
MENTION_IDS = 100  # ids in allowed_mentions.users (and .roles)
NONCE = 25  # characters of a message's nonce

# ---- an embed ---------------------------------------------------------------------
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
EMBED_TOTAL = 6000  # characters across every embed of one message

# ---- components -------------------------------------------------------------------
ACTION_ROWS = 5  # action rows in a message (and rows in a modal)
ROW_BUTTONS = 5  # buttons in one action row
CUSTOM_ID = 100  # characters of a component's custom_id
BUTTON_LABEL = 80
LINK_URL = 512  # a link button's url
SELECT_OPTIONS = 25  # options of one select (and its largest max_values)
OPTION_LABEL = 100  # a select option's label
OPTION_VALUE = 100  # ... its value
OPTION_DESCRIPTION = 100  # ... its description
SELECT_PLACEHOLDER = 150
TEXT_INPUT = 4000  # characters of a text input's value (and its min_length/max_length bounds)
TEXT_INPUT_PLACEHOLDER = 100
INPUT_LABEL = 45  # a text input's (or a label component's) label
INPUT_LABEL_DESCRIPTION = 100
TEXT_DISPLAY = 4000  # a text display component's content

# ---- interactions -----------------------------------------------------------------
MODAL_TITLE = 45
CHOICES = 25  # choices of a command option, or of one autocomplete answer
CHOICE_NAME = 100
CHOICE_VALUE = 100  # a string choice's value
CALLBACK_DEADLINE = 3.0  # seconds Discord waits for an interaction's first answer
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token can be used for followups and edits
MAX_PRIVATE_FOLLOWUPS = 5  # followups per interaction for a user-installed app outside a server

# ---- application commands ---------------------------------------------------------
COMMAND_NAME = 32  # a command's or an option's name
COMMAND_DESCRIPTION = 100  # a command's or an option's description
COMMAND_OPTIONS = 25  # options of one command (or subcommand)
COMMAND_SIZE = 8000  # characters of a command's names, descriptions and choices together

# ---- threads ----------------------------------------------------------------------
THREAD_NAME = 100
