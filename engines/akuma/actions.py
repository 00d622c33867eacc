"""Akuma Trick's actions: a discriminated union on ``type``."""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field

from engines.base import Action


class Play(Action):
    type: Literal["play"] = "play"
    cards: list[str]


class Release(Action):
    type: Literal["release"] = "release"
    cards: list[str]


class Steal(Action):
    type: Literal["steal"] = "steal"
    victim: str


class StopStealing(Action):
    type: Literal["stop_stealing"] = "stop_stealing"


AkumaAction = Annotated[Union[Play, Release, Steal, StopStealing], Field(discriminator="type")]
