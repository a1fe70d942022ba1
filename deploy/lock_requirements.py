"""Write deploy/requirements.lock: the server's runtime dependencies as installed in this
venv, each pinned to its exact version (the image installs these and nothing newer).

    .venv/bin/python deploy/lock_requirements.py > deploy/requirements.lock

Run it after upgrading a dependency in the venv and running the tests; commit the lock.
"""

from __future__ import annotations

from importlib.metadata import distribution

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

PACKAGE = "scorpion-race"


def runtime_closure(package: str = PACKAGE) -> dict[str, str]:
    """Every distribution the package needs at run time (no extras: no test tools), by
    canonical name, with its installed version; markers read for this interpreter."""
    found: dict[str, str] = {}
    here = {**default_environment(), "extra": ""}
    todo = [Requirement(r) for r in distribution(package).requires or []]
    while todo:
        req = todo.pop()
        if req.marker is not None and not req.marker.evaluate(here):
            continue
        name = canonicalize_name(req.name)
        dist = distribution(req.name)
        for extra in req.extras:  # e.g. pkg[extra]: what that extra pulls in
            for text in dist.requires or []:
                sub = Requirement(text)
                env = {**default_environment(), "extra": extra}
                if sub.marker is not None and sub.marker.evaluate(env):
                    todo.append(Requirement(f"{sub.name}{sub.specifier}"))
        if name in found:
            continue
        found[name] = dist.version
        todo.extend(Requirement(r) for r in dist.requires or [])
    return dict(sorted(found.items()))


def main() -> None:
    print("# Made by deploy/lock_requirements.py from a tested venv: exact versions of the")
    print("# server's runtime dependencies, installed by deploy/Dockerfile. Do not edit.")
    for name, version in runtime_closure().items():
        print(f"{name}=={version}")


if __name__ == "__main__":
    main()
