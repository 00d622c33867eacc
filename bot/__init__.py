"""The game host: settings, storage, game service, scheduler, rendering, i18n and CLI."""
