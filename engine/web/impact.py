"""The sample logs the Impact page may re-settle on the server, and the report made fit to send to a browser.

A server never opens a path a request names: ``POST /impact`` picks among these few games shipped with the
package (real Tenhou Phoenix-room games, whole or in part, each small enough that a run stays well inside a worker's time bound),
by name. They sit beside the pages' static files, so that an installed package ships them and a reader can
download the very logs a report counts.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from engine.core.errors import InvalidRequest
from ruledsl.caches import once

# name -> where the game comes from (copies of `../shared/data/tenhou/mjlog`, see its PROVENANCE.json).
SAMPLES: dict[str, str] = {
    "sample-2022060107gm-00a9-0000-b3c573cb.mjlog": "the first 6 rounds of a Tenhou Phoenix room hanchan, via mjx-project/mjx (MIT)",
    "sample-2022060109gm-00a9-0000-3684c9b4.mjlog": "a whole Tenhou Phoenix room hanchan with a double ron, via mjx-project/mjx (MIT)",
    "sample-2022060108gm-00a9-0000-e88e13cf.mjlog": "the first 7 rounds of a Tenhou Phoenix room hanchan, with a nine-terminals abortive draw, via mjx-project/mjx (MIT)",
}


def sample_listing() -> list[dict[str, str]]:
    """The samples as the page lists them: name, where it comes from, and the link to download it."""
    return [{"name": name, "source": source, "url": f"/static/{name}"} for name, source in SAMPLES.items()]


def sample_paths(names: list[str] | None) -> list[str]:
    """The files of the samples named (all of them when ``names`` is None), in the order given; any other name is
    refused by name, never looked up on disk."""
    chosen = list(SAMPLES) if names is None else names
    unknown = [name for name in chosen if name not in SAMPLES]
    if unknown:
        shown = unknown[0][:80]
        raise InvalidRequest(f"unknown sample log `{shown}`; the samples are: {', '.join(SAMPLES)}")
    if not chosen:
        raise InvalidRequest("choose at least one sample log")
    folder = resources.files("engine.web").joinpath("static")
    return [str(folder.joinpath(name)) for name in dict.fromkeys(chosen)]


@once
def samples_rulebook() -> str:
    """The bundled rulebook the samples were played under, read from the first one's rule flags the way
    ``riichi replay`` reads them: the page's default A, which reproduces their rounds."""
    from engine.replay.compare import rulebook_for
    from engine.replay.events import GameStart
    from engine.replay.rounds import read_events

    for event in read_events(Path(sample_paths(None)[0])):
        if isinstance(event, GameStart):
            return rulebook_for(event)
    raise InvalidRequest("the sample logs name no rules")  # not reached: every sample starts with its rules


def bare_names(data: Any) -> Any:
    """The report with every ``file`` field cut to its file name: a browser needs the game, not the server's
    folders."""
    if isinstance(data, dict):
        return {key: Path(value).name if key == "file" and isinstance(value, str) else bare_names(value)
                for key, value in data.items()}
    if isinstance(data, list):
        return [bare_names(value) for value in data]
    return data


__all__ = ["SAMPLES", "samples_rulebook", "sample_listing", "sample_paths", "bare_names"]
