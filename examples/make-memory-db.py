#!/usr/bin/env python3
"""Builds examples/memories/memory.db, a validate-memory style SQLite memory store (docs/contracts.md §1).

Deterministic: fixed rows and timestamps, no clock reads, rollback journal (no -wal files).
Run from anywhere:  python3 examples/make-memory-db.py [OUT_PATH]
"""

import os
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "memories", "memory.db")

SCHEMA = """
CREATE TABLE memories (
    id             INTEGER PRIMARY KEY,
    agent          TEXT    NOT NULL,
    type           TEXT    NOT NULL CHECK (type IN ('cortex', 'memory', 'lessons', 'digest', 'core')),
    content        TEXT    NOT NULL,
    metadata_json  TEXT    NOT NULL DEFAULT '{}',
    created_at     TEXT    NOT NULL,
    updated_at     TEXT,
    tier           INTEGER NOT NULL DEFAULT 0 CHECK (tier BETWEEN 0 AND 2),
    archived       INTEGER NOT NULL DEFAULT 0,
    distilled_from TEXT,
    validated_at   TEXT,
    archive_reason TEXT
);
CREATE TABLE reconcile_log (
    id          INTEGER PRIMARY KEY,
    id_a        INTEGER NOT NULL,
    id_b        INTEGER NOT NULL,
    resolution  TEXT    NOT NULL CHECK (resolution IN ('pick-survivor', 'merge', 'both-stale')),
    survivor_id INTEGER,
    resolved_at TEXT    NOT NULL,
    note        TEXT,
    CHECK (id_a < id_b)
);
CREATE TABLE config (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""

# (id, agent, type, content, metadata_json, created_at, updated_at, tier, archived,
#  distilled_from, validated_at, archive_reason)
MEMORIES = [
    (201, "tech-lead", "core",
     "Cache uses sharded LRU with per-shard locks in internal/cache/lru.go. "
     "The ShardedCache struct (L25) has a mutex per shard.",
     '{"session":"2026-02-01-a","tags":["cache"]}',
     "2026-02-01T10:00:00Z", "2026-02-01T10:00:00Z", 0, 0, "[205]", None, None),
    (202, "tech-lead", "lessons",
     "Header lines are split by parse_header in src/http/parser.rs.",
     '{"session":"2026-02-01-a","tags":["http"]}',
     "2026-02-01T10:01:00Z", "2026-02-01T10:01:00Z", 1, 0, None, None, None),
    (203, "qa-agent", "memory",
     "Integration tests call Healthcheck in services/admin/handlers.go and expect 204.",
     '{"session":"2026-02-01-qa","tags":["tests"]}',
     "2026-02-01T10:02:00Z", "2026-02-01T10:02:00Z", 0, 0, None, None, None),
    (204, "qa-agent", "memory",
     "Old mobile tokens are checked by verify_legacy_token in src/legacy_auth.rs.",
     '{"session":"2026-02-01-qa","tags":["auth"]}',
     "2026-02-01T10:03:00Z", "2026-02-01T10:03:00Z", 2, 0, None, None, None),
    (205, "tech-lead", "digest",
     "The cache lives in pkg/cache/cache.go.",
     '{"session":"2025-12-01-a","tags":["cache"]}',
     "2025-12-01T10:00:00Z", "2025-12-01T10:00:00Z", 1, 1, None, None,
     "superseded by 201"),
    (206, "tech-lead", "cortex",
     "Worker settings (config/settings.yaml): timeout_ms: 500, log_level: info, concurrency: 4.",
     '{"session":"2026-02-01-a","tags":["config"]}',
     "2026-02-01T10:05:00Z", "2026-02-01T10:05:00Z", 0, 0, None, "2026-02-01T12:00:00Z", None),
    (207, "qa-agent", "memory",
     "The QA fixtures mock ApiClient from web/src/client.ts.",
     '{"session":"2026-02-01-qa","tags":["web","tests"]}',
     "2026-02-01T10:06:00Z", "2026-02-01T10:06:00Z", 1, 0, None, None, None),
]

RECONCILE_LOG = [
    (1, 201, 203, "pick-survivor", 201, "2026-02-01T11:00:00Z",
     "both describe the gateway's in-process components; kept the cache note"),
]

CONFIG = [
    ("reconcile_pair_cap", "50"),
    ("validate_window_days", "7"),
]


def main() -> None:
    out = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    for suffix in ("", "-journal", "-wal", "-shm"):
        if os.path.exists(out + suffix):
            os.remove(out + suffix)
    db = sqlite3.connect(out)
    try:
        db.execute("PRAGMA page_size = 4096")
        db.execute("PRAGMA journal_mode = DELETE")
        db.executescript(SCHEMA)
        db.executemany("INSERT INTO memories VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", MEMORIES)
        db.executemany("INSERT INTO reconcile_log VALUES (?,?,?,?,?,?,?)", RECONCILE_LOG)
        db.executemany("INSERT INTO config VALUES (?,?)", CONFIG)
        db.commit()
        db.execute("VACUUM")
    finally:
        db.close()
    print(out)


if __name__ == "__main__":
    main()
