"""deploy/: every metric the Prometheus rules and the Grafana dashboard use exists, they cover
the HTTP API, Redis, leases and forwarding, and Prometheus scrapes every process."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import yaml

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


def test_dashboard_and_alerts_cover_http_redis_leases_and_forwarding() -> None:
    dashboard = json.loads((DEPLOY / "grafana-dashboard.json").read_text())
    shown = {n for p in dashboard["panels"] for t in p["targets"] for n in NAME.findall(t["expr"])}
    rules = yaml.safe_load((DEPLOY / "alerts.yml").read_text())
    alerted = {
        n for g in rules["groups"] for rule in g["rules"] for n in NAME.findall(rule["expr"])
    }
    for rule in (r for g in rules["groups"] for r in g["rules"]):
        assert {"alert", "expr", "labels", "annotations"} <= set(rule), rule
        assert rule["labels"]["severity"] in {"page", "warn", "info"}, rule
    covered = {
        "http": {"scorpion_http_requests_total", "scorpion_http_request_seconds_bucket"},
        "redis": {"scorpion_redis_up", "scorpion_redis_errors_total"},
        "leases": {"scorpion_lease_takeovers_total", "scorpion_lease_renew_failures_total",
                   "scorpion_fenced_writes_total"},
        "forwarding": {"scorpion_forwarded_sockets"},
    }  # fmt: skip
    for what, names in covered.items():
        assert names <= shown, (what, names - shown)
        assert names & alerted, what
    shown_too = {"scorpion_places_owned", "scorpion_forwarded_frames_total"}
    assert shown_too <= shown
    promtool = shutil.which("promtool")  # Debian's prometheus (tests/setup/system-deps)
    assert promtool is not None
    checked = subprocess.run(
        [promtool, "check", "rules", str(DEPLOY / "alerts.yml")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_prometheus_scrapes_every_process() -> None:
    """On a host: a file_sd list of every process; in compose: every replica of "app" by DNS."""
    host = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())
    (job,) = host["scrape_configs"]
    (files,) = job["file_sd_configs"]
    targets = [
        t
        for f in files["files"]
        for g in json.loads((DEPLOY / f).read_text())
        for t in g["targets"]
    ]
    assert len(targets) >= 2 and all(t.startswith("127.0.0.1:") for t in targets), targets
    assert len(set(targets)) == len(targets)
    docker = yaml.safe_load((DEPLOY / "prometheus-compose.yml").read_text())
    (job,) = docker["scrape_configs"]
    assert job["dns_sd_configs"] == [
        {"names": ["app"], "type": "A", "port": 8000, "refresh_interval": "30s"}
    ]
    for config in (host, docker):
        assert config["rule_files"] == ["alerts.yml"]
        assert config["scrape_configs"][0]["job_name"] == "scorpion-race"  # as alerts.yml
    promtool = shutil.which("promtool")
    assert promtool is not None
    for name in ("prometheus.yml", "prometheus-compose.yml"):
        checked = subprocess.run(
            [promtool, "check", "config", name], cwd=DEPLOY,
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert checked.returncode == 0, checked.stdout + checked.stderr
