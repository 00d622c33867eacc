"""The bot's small web side (issue 56): replay pages of finished games at links, /healthz and /metrics."""
from .server import WebConfig, WebServer, config_of

__all__ = ["WebConfig", "WebServer", "config_of"]
