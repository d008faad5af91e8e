#!/usr/bin/env bash
# Builds "shopfront", the small multi-language git repository the bundled memval example
# validates memories against. The history is deterministic: fixed author, committer and
# dates, and a git configuration isolated from the user's, so HEAD has the same hash on
# every machine.
#
#   bash examples/make-demo-repo.sh OUT_DIR        (needs bash, git >= 2.32 and python3)
#
# OUT_DIR must not exist, be empty, or be a repository this script made earlier (it is then
# wiped and rebuilt). Anything else is refused.
set -euo pipefail

usage() { echo "usage: $0 OUT_DIR" >&2; exit 2; }
[[ $# -eq 1 && -n "$1" ]] || usage

out="$1"
marker_name="memval-demo-repo"

if [[ -e "$out" || -L "$out" ]]; then
    [[ -d "$out" && ! -L "$out" ]] || { echo "refusing: $out exists and is not a directory" >&2; exit 1; }
    if [[ -n "$(ls -A -- "$out")" ]]; then
        if [[ -f "$out/.git/$marker_name" ]]; then
            # Made by this script: wipe it. find -delete never follows symlinks, so the
            # repo's escaping symlink (docs/escape -> /etc) is removed, not its target.
            find "$out" -mindepth 1 -delete
        else
            echo "refusing: $out is not empty and was not made by $0" >&2
            exit 1
        fi
    fi
else
    mkdir -p -- "$out"
fi
cd -- "$out"

# Isolate git from the machine: no global/system config, hooks, templates, signing or
# line-ending conversion may change a byte of what gets committed.
export GIT_CONFIG_GLOBAL=/dev/null
export GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME="Dana Example"
export GIT_AUTHOR_EMAIL="dana@shopfront.example"
export GIT_COMMITTER_NAME="Dana Example"
export GIT_COMMITTER_EMAIL="dana@shopfront.example"
export TZ=UTC LC_ALL=C
umask 022

g() {
    git -c user.name="Dana Example" -c user.email="dana@shopfront.example" \
        -c commit.gpgsign=false -c tag.gpgsign=false -c init.defaultBranch=main \
        -c core.autocrlf=false -c core.safecrlf=false -c core.filemode=true \
        -c core.symlinks=true -c core.hooksPath=/dev/null -c core.precomposeunicode=false \
        "$@"
}

commit() { # commit DATE MESSAGE
    g add -A
    GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" \
        g commit -q --no-verify --cleanup=strip -m "$2"
}

write() { # write PATH  (content on stdin)
    mkdir -p -- "$(dirname -- "$1")"
    cat > "$1"
}

# replace PATH OLD NEW: literal replacement of every OLD; fails if OLD is absent.
# (python3 rather than `sed -i`, whose flags differ between GNU and BSD.)
replace() {
    python3 - "$1" "$2" "$3" <<'PY'
import pathlib, sys
path, old, new = sys.argv[1:]
p = pathlib.Path(path)
text = p.read_text(encoding="utf-8")
if old not in text:
    sys.exit(f"replace: {old!r} not found in {path}")
p.write_text(text.replace(old, new), encoding="utf-8")
PY
}

g init -q --template=
echo "made by examples/make-demo-repo.sh; safe for it to wipe" > ".git/$marker_name"

# ---------------------------------------------------------------------------------------
# Commit 1, 2026-01-05: the initial import, including the notes files (README.md,
# CLAUDE.md, docs/architecture.md, services/api/AGENTS.md) that no later commit updates.
# ---------------------------------------------------------------------------------------

write README.md <<'EOF'
# shopfront

A small storefront: a Rust gateway, two Go services, a Python job worker and a
TypeScript web client.

Build the gateway with `cargo build --release` and the web client with `npm run build`.
The design is described in [the architecture notes](docs/architecture.md); runtime
settings live in `config/app.toml`.

Bug reports: https://issues.shopfront.example/projects/shopfront
EOF

write CLAUDE.md <<'EOF'
# CLAUDE.md

Notes for coding agents working on shopfront.

- The gateway entry point is `src/main.rs`. Header parsing is `parse_header` in `src/http/parser.rs`.
- Old mobile clients authenticate through `src/legacy_auth.rs`; ask before touching it.
- Background jobs are throttled by `TokenBucket` in `worker/ratelimit.py`.
- Deploy with `scripts/deploy.sh staging`, then `scripts/deploy.sh production`.
- The gateway accepts at most `max_connections = 100` (see `config/app.toml`).
- Always run `cargo test` and `go test ./...` before committing; never use `--no-verify`.
EOF

write docs/architecture.md <<'EOF'
# Architecture

The gateway terminates HTTP and forwards product calls to the Go API service; the
worker runs background jobs; the web client talks to the API only.

```text
├── src/
│   ├── main.rs
│   └── legacy_auth.rs
├── worker/
│   └── jobs.py
└── web/src/utils/format.js
```

Security reports go to https://security.shopfront.example, never to the public tracker.
EOF

write services/api/AGENTS.md <<'EOF'
# AGENTS.md (services/api)

- `handlers.go` mounts every public route in `RegisterRoutes`; keep them sorted by path.
- `middleware.go` holds the request logging wrapper.
- `DebugDump` in `handlers.go` prints the registered paths; development builds only.
- Upstream calls time out after `timeout_ms: 500` (in `config/settings.yaml`).
- Run `go test ./...` from this folder.
EOF

write Cargo.toml <<'EOF'
[package]
name = "shopfront-gateway"
version = "0.3.0"
edition = "2021"

[dependencies]
EOF

write src/main.rs <<'EOF'
//! shopfront gateway: reads request headers, applies limits, forwards to the Go services.

mod config;
mod http;
mod legacy_auth;

use std::io::{self, BufRead};

use crate::config::load_config;
use crate::http::parser::parse_header;

fn main() {
    let cfg = load_config("config/app.toml").expect("config");
    eprintln!("gateway listening on {}:{} (max {} connections)", cfg.host, cfg.port, cfg.max_connections);
    let stdin = io::stdin();
    for line in stdin.lock().lines() {
        let line = line.expect("read stdin");
        match parse_header(&line) {
            Some((name, value)) if name.eq_ignore_ascii_case("authorization") => {
                let ok = legacy_auth::verify_legacy_token(value);
                println!("auth {}", if ok { "ok" } else { "denied" });
            }
            Some((name, value)) => println!("{name}: {value}"),
            None => println!("malformed header"),
        }
    }
}
EOF

write src/config.rs <<'EOF'
//! Gateway settings: the `[server]` table of `config/app.toml`, then environment overrides.

use std::fs;

#[derive(Debug, Clone)]
pub struct AppConfig {
    pub host: String,
    pub port: u16,
    pub max_connections: u32,
}

impl AppConfig {
    /// Applies `SHOPFRONT_HOST` and `SHOPFRONT_PORT` on top of the file values.
    pub fn from_env(mut self) -> Self {
        if let Ok(host) = std::env::var("SHOPFRONT_HOST") {
            self.host = host;
        }
        if let Some(port) = std::env::var("SHOPFRONT_PORT").ok().and_then(|p| p.parse().ok()) {
            self.port = port;
        }
        self
    }
}

/// Reads `key = value` lines of the gateway config file.
pub fn load_config(path: &str) -> Result<AppConfig, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut cfg = AppConfig { host: "127.0.0.1".into(), port: 8080, max_connections: 0 };
    for line in text.lines() {
        let Some((key, value)) = line.split_once('=') else { continue };
        let value = value.trim().trim_matches('"');
        match key.trim() {
            "host" => cfg.host = value.to_string(),
            "port" => cfg.port = value.parse().map_err(|_| format!("bad port {value}"))?,
            "max_connections" => {
                cfg.max_connections = value.parse().map_err(|_| format!("bad limit {value}"))?
            }
            _ => {}
        }
    }
    Ok(cfg.from_env())
}
EOF

write src/http/mod.rs <<'EOF'
//! HTTP/1.1 helpers for the gateway.

pub mod parser;
EOF

write src/http/parser.rs <<'EOF'
//! Header parsing. The gateway only needs `Name: value` pairs; bodies are streamed through.

/// Longest header line the gateway accepts, in bytes.
pub const MAX_HEADER_LEN: usize = 8 * 1024;

/// Splits one `Name: value` header line. Returns `None` for malformed or oversized lines.
pub fn parse_header(line: &str) -> Option<(&str, &str)> {
    if line.len() > MAX_HEADER_LEN {
        return None;
    }
    let (name, value) = line.split_once(':')?;
    let name = name.trim();
    if name.is_empty() || name.contains(' ') {
        return None;
    }
    Some((name, value.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_name_and_value() {
        assert_eq!(parse_header("Host: shop.example"), Some(("Host", "shop.example")));
    }

    #[test]
    fn rejects_a_line_without_colon() {
        assert_eq!(parse_header("garbage"), None);
    }
}
EOF

write src/legacy_auth.rs <<'EOF'
//! Token check for mobile clients older than v3. Scheduled for removal.

/// Accepts `Bearer v1.<32 hex digits>` tokens issued by the old auth server.
pub fn verify_legacy_token(value: &str) -> bool {
    value
        .strip_prefix("Bearer v1.")
        .map(|hex| hex.len() == 32 && hex.chars().all(|c| c.is_ascii_hexdigit()))
        .unwrap_or(false)
}
EOF

write go.mod <<'EOF'
module shopfront.example/shopfront

go 1.22
EOF

write internal/cache/lru.go <<'EOF'
// Package cache is the gateway's in-process response cache.
package cache

import (
	"container/list"
	"hash/fnv"
	"sync"
)

// entry is one key/value pair in a shard's recency list.
type entry struct {
	key   string
	value []byte
}

// shard is one independently locked LRU.
type shard struct {
	mu    sync.Mutex
	items map[string]*list.Element
	order *list.List
	limit int
}

// ShardedCache spreads keys over shards so readers of different keys rarely contend.
type ShardedCache struct {
	shards []*shard
}

// NewShardedCache makes n shards of perShard entries each.
func NewShardedCache(n, perShard int) *ShardedCache {
	c := &ShardedCache{shards: make([]*shard, n)}
	for i := range c.shards {
		c.shards[i] = &shard{items: map[string]*list.Element{}, order: list.New(), limit: perShard}
	}
	return c
}

func (c *ShardedCache) shardFor(key string) *shard {
	h := fnv.New32a()
	h.Write([]byte(key))
	return c.shards[h.Sum32()%uint32(len(c.shards))]
}

// Get returns the cached value and marks the key most recently used.
func (c *ShardedCache) Get(key string) ([]byte, bool) {
	s := c.shardFor(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	el, ok := s.items[key]
	if !ok {
		return nil, false
	}
	s.order.MoveToFront(el)
	return el.Value.(*entry).value, true
}

// Put stores value under key, evicting the shard's least recently used entry when full.
func (c *ShardedCache) Put(key string, value []byte) {
	s := c.shardFor(key)
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.items[key]; ok {
		el.Value.(*entry).value = value
		s.order.MoveToFront(el)
		return
	}
	s.items[key] = s.order.PushFront(&entry{key: key, value: value})
	if s.order.Len() > s.limit {
		oldest := s.order.Back()
		s.order.Remove(oldest)
		delete(s.items, oldest.Value.(*entry).key)
	}
}
EOF

write services/api/handlers.go <<'EOF'
// Package api serves the public storefront API.
package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
)

// RegisterRoutes mounts every public route on mux, sorted by path.
func RegisterRoutes(mux *http.ServeMux) {
	mux.HandleFunc("/healthz", Healthcheck)
	mux.HandleFunc("/v1/products", listProducts)
}

// Healthcheck reports liveness and the build sha.
func Healthcheck(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]string{"status": "ok", "sha": os.Getenv("BUILD_SHA")})
}

func listProducts(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode([]string{"mug", "poster", "sticker"})
}

// DebugDump writes the registered paths to stdout. Development builds only.
func DebugDump(paths []string) {
	for _, p := range paths {
		fmt.Println(p)
	}
}
EOF

write services/api/middleware.go <<'EOF'
package api

import (
	"log"
	"net/http"
	"time"
)

// WithRequestLog logs method, path and latency of every request.
func WithRequestLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		next.ServeHTTP(w, r)
		log.Printf("%s %s %s", r.Method, r.URL.Path, time.Since(start))
	})
}
EOF

write services/admin/handlers.go <<'EOF'
// Package admin serves the operator endpoints on a separate port.
package admin

import "net/http"

// Routes mounts the admin endpoints.
func Routes(mux *http.ServeMux) {
	mux.HandleFunc("/admin/healthz", Healthcheck)
}

// Healthcheck answers the operator load balancer.
func Healthcheck(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusNoContent)
}
EOF

write worker/__init__.py <<'EOF'
"""Background jobs for shopfront."""
EOF

write worker/jobs.py <<'EOF'
"""Job queue helpers. A job is a dict: {"name", "attempt", "payload", "queued_at"}."""

import time
from collections import deque

QUEUE = deque()


def enqueue_job(name, payload, attempt=0):
    """Append a job to the in-memory queue and return it."""
    job = {"name": name, "attempt": attempt, "payload": payload, "queued_at": time.time()}
    QUEUE.append(job)
    return job


def next_job():
    """Pop the oldest job, or None when the queue is empty."""
    return QUEUE.popleft() if QUEUE else None


def retry_job(job, max_attempts=5, base_delay=0.5):
    """Re-enqueue a failed job with exponential backoff; drop it after max_attempts."""
    attempt = job["attempt"] + 1
    if attempt >= max_attempts:
        return None
    time.sleep(base_delay * (2 ** (attempt - 1)))
    return enqueue_job(job["name"], job["payload"], attempt=attempt)
EOF

write worker/ratelimit.py <<'EOF'
"""Token-bucket throttling for outbound calls made by jobs."""

import threading
import time


class TokenBucket:
    """Allows `rate` calls per second with bursts of up to `capacity`."""

    def __init__(self, rate, capacity):
        self.rate = rate
        self.capacity = capacity
        self.tokens = capacity
        self.updated = time.monotonic()
        self.lock = threading.Lock()

    def refill(self):
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now

    def acquire(self, n=1):
        """Take n tokens if available; return True on success."""
        with self.lock:
            self.refill()
            if self.tokens >= n:
                self.tokens -= n
                return True
            return False
EOF

# Latin-1 encoded (not UTF-8) on purpose: memval must index it without failing.
printf '%b' \
    '# -*- coding: latin-1 -*-\n' \
    '"""Cha\xeenes fran\xe7aises pour les e-mails des jobs."""\n' \
    '\n' \
    'GREETING = "Bonjour, tr\xe8s cher client"\n' \
    '\n' \
    '\n' \
    'def greet(name):\n' \
    '    """Retourne la salutation compl\xe8te."""\n' \
    '    return f"{GREETING} {name} !"\n' \
    > worker/strings_fr.py

write package.json <<'EOF'
{
  "name": "shopfront-web",
  "version": "0.3.0",
  "private": true,
  "type": "module",
  "scripts": {
    "build": "tsc -p web"
  }
}
EOF

write web/src/client.ts <<'EOF'
// Thin wrapper around fetch for the storefront API.

export interface Product {
  id: string;
  name: string;
  priceCents: number;
}

export class ApiClient {
  constructor(private readonly baseUrl: string) {}

  async fetchJson<T>(path: string): Promise<T> {
    const res = await fetch(`${this.baseUrl}${path}`);
    if (!res.ok) {
      throw new Error(`GET ${path} failed: ${res.status}`);
    }
    return (await res.json()) as T;
  }

  listProducts(): Promise<Product[]> {
    return this.fetchJson<Product[]>("/v1/products");
  }
}
EOF

write web/src/utils/format.js <<'EOF'
// Display helpers shared by every page of the storefront.

const EURO = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" });

/** Formats an integer amount of cents as a euro price: 1999 -> "19,99 €". */
export function formatPrice(cents) {
  return EURO.format(cents / 100);
}

/** Shortens long product names for cards. */
export function truncate(text, max = 40) {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** "3 items", "1 item". */
export function pluralize(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}
EOF

# A small binary file (an 16x16 ICO header followed by zero bytes).
mkdir -p web/public
printf '\x00\x00\x01\x00\x01\x00\x10\x10\x00\x00\x01\x00\x20\x00\x30\x00\x00\x00\x16\x00\x00\x00' \
    > web/public/favicon.ico
head -c 48 /dev/zero >> web/public/favicon.ico

write config/app.toml <<'EOF'
# shopfront gateway settings

[server]
host = "0.0.0.0"
port = 8080
max_connections = 100

[cache]
shards = 16
per_shard = 1024
EOF

write config/settings.yaml <<'EOF'
# shopfront worker and API client settings
worker:
  concurrency: 4
  timeout_ms: 500
  log_level: info
api:
  base_url: "http://localhost:8080"
EOF

write scripts/deploy.sh <<'EOF'
#!/usr/bin/env bash
# Deploys the gateway and services to one environment: staging or production.
set -euo pipefail
target="${1:?usage: deploy.sh staging|production}"
echo "building gateway for $target"
cargo build --release
echo "pushing images for $target"
EOF
chmod 755 scripts/deploy.sh

# A symlink that points outside the repository: memval must never follow it.
ln -s /etc docs/escape

commit "2026-01-05T09:00:00+00:00" "initial import of shopfront"

# ---------------------------------------------------------------------------------------
# Refactors, 2026-03-10 .. 2026-04-20. The notes files above are not updated.
# ---------------------------------------------------------------------------------------

# Symbol rename (Rust): parse_header -> parse_head, callers included.
replace src/http/parser.rs parse_header parse_head
replace src/main.rs parse_header parse_head
commit "2026-03-10T10:00:00+00:00" "http: rename parse_header to parse_head"

# Rename chain, step 1 (A -> B, into another directory).
mkdir -p web/src/lib
g mv web/src/utils/format.js web/src/lib/format.js
commit "2026-03-14T10:00:00+00:00" "web: move format helpers to web/src/lib"

# File move into another directory.
mkdir -p tools
g mv scripts/deploy.sh tools/deploy.sh
commit "2026-03-17T10:00:00+00:00" "move the deploy script to tools/"

# Symbol rename (Python), body kept.
replace worker/ratelimit.py "class TokenBucket:" "class RateLimiter:"
commit "2026-03-24T10:00:00+00:00" "worker: rename TokenBucket to RateLimiter"

# Symbol moved to another file: retry_job leaves worker/jobs.py for worker/retry.py.
python3 - <<'PY'
import pathlib
p = pathlib.Path("worker/jobs.py")
text = p.read_text()
start = text.index("\n\ndef retry_job(")
p.write_text(text[:start].rstrip("\n") + "\n")
PY
write worker/retry.py <<'EOF'
"""Retry policy for failed jobs."""

import time

from worker.jobs import enqueue_job


def retry_job(job, max_attempts=5, base_delay=0.5):
    """Re-enqueue a failed job with exponential backoff; drop it after max_attempts."""
    attempt = job["attempt"] + 1
    if attempt >= max_attempts:
        return None
    time.sleep(base_delay * (2 ** (attempt - 1)))
    return enqueue_job(job["name"], job["payload"], attempt=attempt)
EOF
commit "2026-03-31T10:00:00+00:00" "worker: move retry_job into worker/retry.py"

# Rename chain, step 2 (B -> C), with a one-line edit (git reports R0xx).
g mv web/src/lib/format.js web/src/lib/formatting.js
replace web/src/lib/formatting.js "// Display helpers shared" "// Display formatting helpers shared"
commit "2026-04-03T10:00:00+00:00" "web: rename format.js to formatting.js"

# Lines inserted above ShardedCache.Get: its line number shifts, the struct's does not.
python3 - <<'PY'
import pathlib
p = pathlib.Path("internal/cache/lru.go")
text = p.read_text()
anchor = "// Get returns the cached value"
stats = '''// Stats counts lookups since the cache was made.
type Stats struct {
	Hits   int
	Misses int
}

// Stats returns the hit and miss counters summed over all shards.
func (c *ShardedCache) Stats() Stats {
	var st Stats
	for _, s := range c.shards {
		s.mu.Lock()
		st.Hits += s.hits
		st.Misses += s.misses
		s.mu.Unlock()
	}
	return st
}

'''
text = text.replace(anchor, stats + anchor, 1)
# The counters share the limit's line, so nothing above ShardedCache moves (gofmt layout).
old_shard = "\tmu    sync.Mutex\n\titems map[string]*list.Element\n\torder *list.List\n\tlimit int\n}"
new_shard = ("\tmu                  sync.Mutex\n\titems               map[string]*list.Element\n"
             "\torder               *list.List\n\tlimit, hits, misses int\n}")
assert old_shard in text
text = text.replace(old_shard, new_shard, 1)
text = text.replace("\tif !ok {\n\t\treturn nil, false\n\t}\n\ts.order.MoveToFront(el)\n",
                    "\tif !ok {\n\t\ts.misses++\n\t\treturn nil, false\n\t}\n\ts.hits++\n\ts.order.MoveToFront(el)\n", 1)
p.write_text(text)
PY
commit "2026-04-07T10:00:00+00:00" "cache: count hits and misses per shard"

# A file deleted with no successor, and a Go function deleted with nothing similar.
g rm -q src/legacy_auth.rs
python3 - <<'PY'
import pathlib
m = pathlib.Path("src/main.rs")
text = m.read_text()
text = text.replace("mod legacy_auth;\n", "", 1)
arm = '''            Some((name, value)) if name.eq_ignore_ascii_case("authorization") => {
                let ok = legacy_auth::verify_legacy_token(value);
                println!("auth {}", if ok { "ok" } else { "denied" });
            }
'''
assert arm in text
m.write_text(text.replace(arm, "", 1))
h = pathlib.Path("services/api/handlers.go")
text = h.read_text()
start = text.index("\n// DebugDump")
text = text[:start].rstrip("\n") + "\n"
text = text.replace('\t"fmt"\n', "", 1)
h.write_text(text)
PY
commit "2026-04-14T10:00:00+00:00" "remove legacy mobile auth and the DebugDump helper"

# Configuration values change.
replace config/app.toml "max_connections = 100" "max_connections = 250"
replace config/settings.yaml "timeout_ms: 500" "timeout_ms: 750"
commit "2026-04-20T10:00:00+00:00" "config: raise the connection cap and the worker timeout"

g rev-parse HEAD
