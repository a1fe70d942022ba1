"""deploy/: every metric the Prometheus rules and the Grafana dashboard use exists."""

from __future__ import annotations

import json
import re
from pathlib import Path

from scorpion.web.metrics import Metrics

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
NAME = re.compile(r"\b(?:scorpion|process)_[a-z_]+")


def test_dashboard_and_alerts_name_only_exported_metrics() -> None:
    dashboard = json.loads((DEPLOY / "grafana-dashboard.json").read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    alerts = (DEPLOY / "alerts.yml").read_text()
    used = set(NAME.findall(" ".join(exprs))) | set(NAME.findall(alerts))
    exported = Metrics().render().decode()
    # Each name is a family (in a "# TYPE" line, even with no sample yet) plus a suffix.
    families = set(re.findall(r"^# TYPE (\S+) ", exported, re.M))
    missing = {
        n for n in used if {n, re.sub(r"_(total|bucket|count|sum)$", "", n)}.isdisjoint(families)
    }
    assert not missing
    assert {"scorpion_ack_seconds_bucket", "process_resident_memory_bytes"} <= used
    assert "scorpion_nonsense_total" not in families  # the check can fail
    assert "alerts.yml" in (DEPLOY / "prometheus.yml").read_text()
