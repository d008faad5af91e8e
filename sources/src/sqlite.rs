//! validate-memory's `memory.db`: the `memories` table (archived rows skipped) and the
//! `config` table.
//!
//! The database belongs to another tool and may be open in it right now, so it is opened
//! read-only through a URI, and in a way that leaves no `-wal`, `-shm` or `-journal` file
//! behind: `mode=ro` for a rollback-journal database (reading never creates a journal), and
//! `immutable=1` for a WAL database that has no `-wal` file (a read-only WAL connection
//! would otherwise create `-wal` and `-shm`). A WAL database with a live `-wal` file is
//! copied with its `-wal` into a private temporary folder and read there, so the rows still
//! in the WAL are read and the `-shm` SQLite needs is created in that folder, not beside the
//! user's file. A `-wal`, `-shm` or `-journal` beside the database that is not a regular file
//! (a FIFO, a folder, a link) is not SQLite's: the database is then read `immutable=1`, which
//! opens no side file, so nothing is read from or created beside such a thing.
//!
//! Every query runs under a progress handler that stops the read after [`QUERY_LIMIT`], with
//! temporary tables in memory under a heap limit: a `memories` that is a recursive view
//! fails with a message instead of running until killed (and filling the temp folder).
//!
//! The limits: 10 s per query ([`QUERY_LIMIT`]) and 512 MiB of SQLite heap. Archived rows are
//! skipped; the `config` table gives `reconcile_pair_cap` and `validate_window_days`, and
//! [`reconcile_log`] the pairs already settled (`pick-survivor`, `merge`, `both-stale`).

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use memval_proto::{Memory, Source};
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags};

use crate::common::Ctx;
use crate::dates;
use crate::error::SourceError;
use crate::loaded::Format;
use crate::text::{too_large, MAX_MEMORY_BYTES};

pub(crate) const MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// The settings validate-memory keeps in its `config` table. `None` when the table or the
/// key is absent: the caller applies its own default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SqliteConfig {
    pub reconcile_pair_cap: Option<i64>,
    pub validate_window_days: Option<i64>,
}

/// Reads the `config` table of a validate-memory `memory.db`, read-only. The table may be
/// key/value rows (`key`/`name` and `value` columns) or one row with a column per setting.
pub fn sqlite_config(path: &Path) -> Result<SqliteConfig, SourceError> {
    let conn = open(path)?;
    let cols = columns(&conn, "config").map_err(|e| sql_error(path, e))?;
    if cols.is_empty() {
        return Ok(SqliteConfig::default());
    }
    let find = |names: &[&str]| cols.iter().find(|c| names.iter().any(|n| c.eq_ignore_ascii_case(n))).cloned();
    const KEYS: [&str; 2] = ["reconcile_pair_cap", "validate_window_days"];
    let mut values: HashMap<String, Option<i64>> = HashMap::new();
    if let (Some(key_col), Some(value_col)) = (find(&["key", "name"]), find(&["value", "val"])) {
        let sql = format!("SELECT {}, {} FROM config", quote(&key_col), quote(&value_col));
        let mut stmt = conn.prepare(&sql).map_err(|e| sql_error(path, e))?;
        let mut rows = stmt.query([]).map_err(|e| sql_error(path, e))?;
        while let Some(row) = rows.next().map_err(|e| sql_error(path, e))? {
            let key = text(row.get_ref(0).map_err(|e| sql_error(path, e))?).unwrap_or_default();
            let Some(key) = KEYS.iter().find(|k| key.trim().eq_ignore_ascii_case(k)) else {
                continue;
            };
            let value = integer(path, key, row.get_ref(1).map_err(|e| sql_error(path, e))?)?;
            values.insert(key.to_string(), value);
        }
    } else {
        for key in KEYS {
            let Some(col) = find(&[key]) else { continue };
            let sql = format!("SELECT {} FROM config LIMIT 1", quote(&col));
            let mut stmt = conn.prepare(&sql).map_err(|e| sql_error(path, e))?;
            let mut rows = stmt.query([]).map_err(|e| sql_error(path, e))?;
            if let Some(row) = rows.next().map_err(|e| sql_error(path, e))? {
                let value = integer(path, key, row.get_ref(0).map_err(|e| sql_error(path, e))?)?;
                values.insert(key.to_string(), value);
            }
        }
    }
    Ok(SqliteConfig {
        reconcile_pair_cap: values.get(KEYS[0]).copied().flatten(),
        validate_window_days: values.get(KEYS[1]).copied().flatten(),
    })
}

/// A pair of memories validate-memory's `--reconcile` already resolved: a row of its
/// `reconcile_log` whose resolution is `pick-survivor`, `merge` or `both-stale` (docs/contracts.md §1).
/// Ids are kept as text, in the order the row gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedPair {
    pub id_a: String,
    pub id_b: String,
    pub resolution: String,
}

/// The resolutions that settle a pair for good; any other (`skip`, `defer`, ...) leaves the
/// pair open, so it is raised again.
pub const SETTLED_RESOLUTIONS: [&str; 3] = ["pick-survivor", "merge", "both-stale"];

/// Reads the settled pairs of a `memory.db`'s `reconcile_log`, read-only. No table means no
/// settled pair. The two id columns are `id_a`/`id_b` (or `memory_a`/`memory_b`,
/// `a_id`/`b_id`), the resolution column `resolution` (or `action`, `decision`, `outcome`).
/// A table with neither shape is an error saying which columns it has: memval would
/// otherwise raise again every pair the user already resolved.
pub fn reconcile_log(path: &Path) -> Result<Vec<ResolvedPair>, SourceError> {
    let conn = open(path)?;
    let cols = columns(&conn, "reconcile_log").map_err(|e| sql_error(path, e))?;
    if cols.is_empty() {
        return Ok(Vec::new());
    }
    let find = |names: &[&str]| names.iter().find_map(|n| cols.iter().find(|c| c.eq_ignore_ascii_case(n))).cloned();
    let (Some(a), Some(b), Some(how)) = (
        find(&["id_a", "memory_a", "a_id", "memory_id_a"]),
        find(&["id_b", "memory_b", "b_id", "memory_id_b"]),
        find(&["resolution", "action", "decision", "outcome"]),
    ) else {
        return Err(SourceError::Sqlite {
            path: path.to_path_buf(),
            reason: format!(
                "its `reconcile_log` table has columns {} but memval needs id_a, id_b and resolution to know which pairs are resolved",
                cols.join(", ")
            ),
        });
    };
    let sql = format!("SELECT {}, {}, {} FROM reconcile_log", quote(&a), quote(&b), quote(&how));
    let mut stmt = conn.prepare(&sql).map_err(|e| sql_error(path, e))?;
    let mut rows = stmt.query([]).map_err(|e| sql_error(path, e))?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(|e| sql_error(path, e))? {
        let get = |i| row.get_ref(i).ok().and_then(text).map(|s| s.trim().to_owned());
        let (Some(id_a), Some(id_b), Some(resolution)) = (get(0), get(1), get(2)) else {
            continue;
        };
        let resolution = resolution.to_ascii_lowercase().replace('_', "-");
        if SETTLED_RESOLUTIONS.contains(&resolution.as_str()) {
            out.push(ResolvedPair { id_a, id_b, resolution });
        }
    }
    Ok(out)
}

pub(crate) fn load(path: &Path, ctx: &mut Ctx) -> Result<Vec<Memory>, SourceError> {
    let conn = open(path)?;
    let cols = columns(&conn, "memories").map_err(|e| sql_error(path, e))?;
    if cols.is_empty() {
        return Err(SourceError::Sqlite {
            path: path.to_path_buf(),
            reason: "it has no `memories` table; pass validate-memory's memory.db".into(),
        });
    }
    let has = |name: &str| cols.iter().find(|c| c.eq_ignore_ascii_case(name)).cloned();
    let mut select: Vec<String> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for name in ["id", "content", "agent", "type", "tier", "created_at", "updated_at", "archived"] {
        match has(name) {
            Some(col) => {
                index.insert(name, select.len());
                select.push(quote(&col));
            }
            None if name == "id" || name == "content" => {
                return Err(SourceError::Sqlite {
                    path: path.to_path_buf(),
                    reason: format!("its `memories` table has no `{name}` column; pass validate-memory's memory.db"),
                });
            }
            None => {}
        }
    }
    let sql = format!("SELECT {} FROM memories ORDER BY {}", select.join(", "), select[0]);
    let mut stmt = conn.prepare(&sql).map_err(|e| sql_error(path, e))?;
    let mut rows = stmt.query([]).map_err(|e| sql_error(path, e))?;
    let shown = path.to_string_lossy().into_owned();
    let mut out = Vec::new();
    let mut archived = 0usize;
    while let Some(row) = rows.next().map_err(|e| sql_error(path, e))? {
        let get = |name: &str| -> Result<ValueRef<'_>, SourceError> {
            match index.get(name) {
                Some(&i) => row.get_ref(i).map_err(|e| sql_error(path, e)),
                None => Ok(ValueRef::Null),
            }
        };
        if truthy(get("archived")?) {
            archived += 1;
            continue;
        }
        let id_value = get("id")?;
        let row_id = match id_value {
            ValueRef::Integer(i) => Some(i),
            _ => None,
        };
        let Some(id) = text(id_value).filter(|s| !s.trim().is_empty()) else {
            ctx.problem(path, "a row has no `id`");
            continue;
        };
        let fields = (|| -> Result<Memory, String> {
            let content = match get("content").map_err(|e| e.to_string())? {
                ValueRef::Null => return Err("`content` is null".into()),
                v => text(v).ok_or("`content` is not UTF-8 text")?,
            };
            if content.len() as u64 > MAX_MEMORY_BYTES {
                return Err(too_large(content.len() as u64));
            }
            let tier = match get("tier").map_err(|e| e.to_string())? {
                ValueRef::Null => 0,
                v => match text(v).as_deref().map(str::trim).and_then(|t| t.parse::<i64>().ok()) {
                    Some(t @ 0..=2) => t as u8,
                    _ => return Err(format!("`tier` must be 0, 1 or 2, found {:?}", text(v).unwrap_or_default())),
                },
            };
            let created_at =
                date(get("created_at").map_err(|e| e.to_string())?).map_err(|e| format!("`created_at`: {e}"))?;
            let updated_at =
                date(get("updated_at").map_err(|e| e.to_string())?).map_err(|e| format!("`updated_at`: {e}"))?;
            Ok(Memory {
                id: id.clone(),
                agent: text(get("agent").map_err(|e| e.to_string())?)
                    .filter(|s| !s.trim().is_empty())
                    .unwrap_or_else(|| "unknown".into()),
                content,
                tier,
                kind: text(get("type").map_err(|e| e.to_string())?)
                    .filter(|s| !s.trim().is_empty())
                    .unwrap_or_else(|| "memory".into()),
                created_at,
                updated_at,
                source: Source { path: shown.clone(), line: None, row: row_id, format: Format::Sqlite.as_str().into() },
                context_dir: None,
                first_line: 1,
            })
        })();
        match fields {
            Ok(m) => out.push(m),
            Err(reason) => ctx.problem(path, format!("row {id}: {reason}")),
        }
    }
    tracing::debug!(path = %path.display(), archived, "archived rows skipped");
    Ok(out)
}

/// How long reading one database may take, all its queries together (from opening it).
pub(crate) const QUERY_LIMIT: std::time::Duration = std::time::Duration::from_secs(10);
/// Largest WAL database (with its `-wal`) copied into a private snapshot.
const MAX_SNAPSHOT_BYTES: u64 = 1 << 30;

/// A read-only connection, and the private copy it reads when there is one (dropped after
/// the connection: fields drop in order).
pub(crate) struct Db {
    conn: Connection,
    _snapshot: Option<tempfile::TempDir>,
}

impl std::ops::Deref for Db {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        &self.conn
    }
}

/// Opens `path` read-only without creating any file next to it (see the module docs).
fn open(path: &Path) -> Result<Db, SourceError> {
    let canon = std::fs::canonicalize(path).map_err(|e| SourceError::io(path, e))?;
    let mut header = [0u8; 100];
    let mut file = crate::text::open_regular(&canon).map_err(|e| SourceError::io(path, e))?;
    let n = read_fully(&mut file, &mut header).map_err(|e| SourceError::io(path, e))?;
    if n < 16 || &header[..16] != MAGIC {
        return Err(SourceError::Unrecognised { path: path.to_path_buf(), why: "it has no SQLite header".into() });
    }
    // Bytes 18 and 19 are the write and read format versions: 2 means WAL.
    let wal = n >= 20 && (header[18] == 2 || header[19] == 2);
    let side = |suffix: &str| {
        let mut file = canon.clone().into_os_string();
        file.push(suffix);
        PathBuf::from(file)
    };
    let wal_file = side("-wal");
    // A side file that is not a regular file (a FIFO, a folder, a link) is not SQLite's own:
    // the database is read as it is on disk (`immutable=1` opens no side file and creates
    // none), and its rows still in such a "WAL" are not read.
    let odd_side = ["-wal", "-shm", "-journal"]
        .iter()
        .find(|suffix| std::fs::symlink_metadata(side(suffix)).is_ok_and(|m| !m.file_type().is_file()));
    let (target, mode, snapshot) = if let Some(suffix) = odd_side {
        tracing::warn!(path = %path.display(), side = %suffix, "a side file of the database is not a regular file; read as it is on disk, without it");
        (canon.clone(), "immutable=1", None)
    } else if wal && wal_file.exists() {
        let dir = snapshot(path, &canon, &wal_file)?;
        (dir.path().join("memory.db"), "mode=ro", Some(dir))
    } else if wal {
        (canon.clone(), "immutable=1", None)
    } else {
        (canon.clone(), "mode=ro", None)
    };
    let uri = format!("file://{}?{mode}", uri_path(&target));
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let mut conn = Connection::open_with_flags(&uri, flags).map_err(|e| sql_error(path, e))?;
    conn.pragma_update(None, "query_only", true).map_err(|e| sql_error(path, e))?;
    // Sorts and temporary tables in memory, bounded; and no query runs past QUERY_LIMIT.
    conn.pragma_update(None, "temp_store", "MEMORY").map_err(|e| sql_error(path, e))?;
    conn.pragma_update(None, "hard_heap_limit", 512i64 * 1024 * 1024).map_err(|e| sql_error(path, e))?;
    let started = std::time::Instant::now();
    conn.progress_handler(10_000, Some(move || started.elapsed() > QUERY_LIMIT)).map_err(|e| sql_error(path, e))?;
    tracing::debug!(path = %path.display(), mode, snapshot = snapshot.is_some(), "sqlite opened read-only");
    Ok(Db { conn, _snapshot: snapshot })
}

/// Copies a WAL database and its `-wal` into a private temporary folder.
fn snapshot(path: &Path, db: &Path, wal: &Path) -> Result<tempfile::TempDir, SourceError> {
    let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    let total = size(db) + size(wal);
    if total > MAX_SNAPSHOT_BYTES {
        return Err(SourceError::Sqlite {
            path: path.to_path_buf(),
            reason: format!(
                "a WAL database with a live -wal file ({total} bytes together) is read from a private copy, and memval copies at most {} MiB; checkpoint it first (sqlite3 memory.db 'PRAGMA wal_checkpoint(TRUNCATE)')",
                MAX_SNAPSHOT_BYTES >> 20
            ),
        });
    }
    let dir = tempfile::Builder::new().prefix("memval-sqlite-").tempdir().map_err(|e| SourceError::io(path, e))?;
    std::fs::copy(db, dir.path().join("memory.db")).map_err(|e| SourceError::io(path, e))?;
    std::fs::copy(wal, dir.path().join("memory.db-wal")).map_err(|e| SourceError::io(wal, e))?;
    Ok(dir)
}

fn read_fully(file: &mut std::fs::File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

/// Percent-encodes a path for a `file:` URI: everything but unreserved characters and `/`.
fn uri_path(path: &Path) -> String {
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes = path.to_string_lossy().replace('\\', "/").into_bytes();
    let mut out = String::with_capacity(bytes.len());
    for b in bytes {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare("SELECT name FROM pragma_table_info(?1)")?;
    let names = stmt.query_map([table], |row| row.get::<_, String>(0))?;
    names.collect()
}

fn quote(ident: &str) -> String {
    format!("\"{}\"", ident.replace('"', "\"\""))
}

fn sql_error(path: &Path, e: rusqlite::Error) -> SourceError {
    let code = match &e {
        rusqlite::Error::SqliteFailure(f, _) => Some(f.code),
        _ => None,
    };
    let reason = if code == Some(rusqlite::ErrorCode::OperationInterrupted) {
        format!(
            "reading it took longer than {} s and was stopped (is `memories` a view that never ends, e.g. a recursive one?); point memval at validate-memory's own memory.db",
            QUERY_LIMIT.as_secs()
        )
    } else if code == Some(rusqlite::ErrorCode::OutOfMemory) {
        "reading it needed more than 512 MiB and was stopped (is `memories` a view that never ends, e.g. a recursive one?); point memval at validate-memory's own memory.db".to_string()
    } else {
        format!("{e}; check it is validate-memory's memory.db and not being rewritten")
    };
    SourceError::Sqlite { path: path.to_path_buf(), reason }
}

fn text(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Null => None,
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(f) => Some(f.to_string()),
        ValueRef::Text(t) | ValueRef::Blob(t) => String::from_utf8(t.to_vec()).ok(),
    }
}

fn truthy(v: ValueRef<'_>) -> bool {
    match v {
        ValueRef::Null => false,
        ValueRef::Integer(i) => i != 0,
        ValueRef::Real(f) => f != 0.0,
        ValueRef::Text(t) | ValueRef::Blob(t) => {
            let t = String::from_utf8_lossy(t);
            let t = t.trim();
            !(t.is_empty() || t == "0" || t.eq_ignore_ascii_case("false") || t.eq_ignore_ascii_case("no"))
        }
    }
}

/// A stored date: unix seconds (INTEGER), a julian day or unix seconds (REAL), or text.
fn date(v: ValueRef<'_>) -> Result<Option<i64>, String> {
    match v {
        ValueRef::Null => Ok(None),
        ValueRef::Integer(i) => Ok(Some(i)),
        // SQLite's julianday() values sit around 2.4 million; unix seconds are far larger.
        ValueRef::Real(f) if (1_000_000.0..5_000_000.0).contains(&f) => {
            Ok(Some(((f - 2_440_587.5) * 86_400.0).floor() as i64))
        }
        ValueRef::Real(f) => Ok(Some(f.floor() as i64)),
        v => {
            let s = text(v).ok_or("not UTF-8 text")?;
            if s.trim().is_empty() {
                return Ok(None);
            }
            dates::parse_date(&s).map(Some).ok_or_else(|| format!("{s:?} is not a date ({})", dates::DATE_FORMATS))
        }
    }
}

fn integer(path: &Path, key: &str, v: ValueRef<'_>) -> Result<Option<i64>, SourceError> {
    let bad = |shown: String| SourceError::Malformed {
        path: path.to_path_buf(),
        format: "sqlite",
        reason: format!("config `{key}` is {shown}, expected an integer; fix the value in the `config` table"),
    };
    match v {
        ValueRef::Null => Ok(None),
        ValueRef::Integer(i) => Ok(Some(i)),
        ValueRef::Real(f) if f.fract() == 0.0 => Ok(Some(f as i64)),
        other => {
            let s = text(other).unwrap_or_default();
            if s.trim().is_empty() {
                return Ok(None);
            }
            s.trim().parse().map(Some).map_err(|_| bad(format!("{s:?}")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uri_path_escapes_uri_syntax() {
        assert_eq!(uri_path(Path::new("/a b/m?#%.db")), "/a%20b/m%3F%23%25.db");
    }

    #[test]
    fn dates_in_every_storage_class() {
        assert_eq!(date(ValueRef::Integer(5)), Ok(Some(5)));
        assert_eq!(date(ValueRef::Real(2_440_588.5)), Ok(Some(86_400)));
        assert_eq!(date(ValueRef::Text(b"1970-01-02 00:00:00")), Ok(Some(86_400)));
        assert_eq!(date(ValueRef::Null), Ok(None));
        assert!(date(ValueRef::Text(b"later")).is_err());
    }

    #[test]
    fn archived_flags() {
        assert!(truthy(ValueRef::Integer(1)));
        assert!(truthy(ValueRef::Text(b"true")));
        assert!(!truthy(ValueRef::Integer(0)));
        assert!(!truthy(ValueRef::Null));
        assert!(!truthy(ValueRef::Text(b"0")));
    }

    #[test]
    fn reconcile_log_keeps_only_settled_pairs() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("memory.db");
        let conn = Connection::open(&db).unwrap();
        conn.execute_batch(
            "CREATE TABLE reconcile_log (id INTEGER PRIMARY KEY, id_a INTEGER, id_b INTEGER, resolution TEXT);
             INSERT INTO reconcile_log (id_a, id_b, resolution) VALUES
               (1, 2, 'pick-survivor'), (3, 4, 'merge'), (5, 6, 'both_stale'), (7, 8, 'skip'), (9, NULL, 'merge');",
        )
        .unwrap();
        drop(conn);
        let got = reconcile_log(&db).unwrap();
        let ids: Vec<(&str, &str)> = got.iter().map(|r| (r.id_a.as_str(), r.id_b.as_str())).collect();
        assert_eq!(ids, [("1", "2"), ("3", "4"), ("5", "6")]);
        assert_eq!(got[2].resolution, "both-stale");
    }

    #[test]
    fn reconcile_log_of_an_unknown_shape_is_an_error_not_an_empty_list() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("memory.db");
        let conn = Connection::open(&db).unwrap();
        conn.execute_batch("CREATE TABLE reconcile_log (left TEXT, right TEXT);").unwrap();
        drop(conn);
        let err = reconcile_log(&db).unwrap_err().to_string();
        assert!(err.contains("left, right"), "{err}");
        let none = dir.path().join("none.db");
        Connection::open(&none).unwrap().execute_batch("CREATE TABLE memories (id INTEGER, content TEXT);").unwrap();
        assert!(reconcile_log(&none).unwrap().is_empty());
    }
}
