"""Discord surface: slash commands, buttons, selects. Thin: parse → service → render."""
