//! The store on a full disk, for real: a 4 MiB tmpfs (memval's CI runs as root) holding the
//! store, filled to the last byte. Writing then fails with [`StoreError::DiskFull`], which
//! says what to do (not "move it aside", which a corrupt store gets), and dropping the store
//! afterwards returns instead of hanging in sled's final flush.

use std::io::Write;
use std::path::Path;
use std::process::Command;

use memval_proto::RunHeader;
use memval_store::{RunRecord, ScoreStore, StoreError};

struct Tmpfs(tempfile::TempDir);

impl Tmpfs {
    fn mount(size: &str) -> Tmpfs {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .output()
            .expect("mount runs");
        assert!(
            out.status.success(),
            "this test mounts a tmpfs to fill it (it needs root, as CI has): {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Tmpfs(dir)
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        if !Command::new("umount")
            .arg(self.0.path())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
        {
            let _ = Command::new("umount").arg("-l").arg(self.0.path()).status();
        }
    }
}

/// Fill the filesystem holding `dir` to the last byte; returns the filler's path.
fn fill(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("filler");
    let mut f = std::fs::File::create(&path).unwrap();
    let block = vec![0u8; 4096];
    while f.write(&block).is_ok_and(|n| n > 0) {}
    while f.write(&[0u8]).is_ok_and(|n| n > 0) {}
    path
}

fn record(run_id: &str, started_at: i64) -> RunRecord {
    RunRecord {
        header: RunHeader { run_id: run_id.into(), repo: "r".into(), commit: None, started_at, expected_memories: 1 },
        finished_at: started_at + 1,
        memories: 1,
        claims: 1,
        not_checked: 0,
    }
}

#[test]
fn a_full_disk_is_told_apart_and_the_store_still_closes() {
    let disk = Tmpfs::mount("4m");
    let dir = disk.0.path().join("store");
    {
        let store = memval_store::open(&dir).unwrap();
        store.put_run(&record("first", 1)).unwrap();
        store.flush().unwrap();
        let filler = fill(disk.0.path());
        // Enough to need new space whatever sled had preallocated.
        let big = "x".repeat(64 * 1024);
        let mut failed = None;
        for i in 0..64 {
            let mut r = record(&format!("second-{i}-{big}"), 2 + i);
            r.header.repo = big.clone();
            if let Err(e) = store.put_run(&r).and_then(|()| store.flush()) {
                failed = Some(e);
                break;
            }
        }
        let err = failed.expect("writing 4 MiB onto a full 4 MiB disk failed");
        assert!(matches!(err, StoreError::DiskFull { .. }), "not told apart as a full disk: {err:?}");
        let text = err.to_string();
        assert!(text.contains("is full") && text.contains("free space") && text.contains("--store"), "{text}");
        // Flushing it again says it is broken instead of waiting for the failed write.
        let (done, flushed) = std::sync::mpsc::channel();
        let store = std::sync::Arc::new(store);
        let flushing = store.clone();
        let flusher = std::thread::spawn(move || {
            let _ = done.send(flushing.flush());
        });
        match flushed.recv_timeout(std::time::Duration::from_secs(20)) {
            Ok(Err(e @ StoreError::Broken { .. })) => {
                let text = e.to_string();
                assert!(text.contains("failed earlier") && text.contains("--store"), "{text}");
                assert!(e.needs_new_process());
            }
            Ok(other) => panic!("a flush after a failed write: {other:?}"),
            Err(_) => panic!("a flush after a failed write hung"),
        }
        flusher.join().unwrap();
        let store = std::sync::Arc::try_unwrap(store).ok().expect("the flushing thread let go of the store");
        // Dropping a store whose write failed returns (sled alone would wait forever).
        let (done, dropped) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            drop(store);
            let _ = done.send(());
        });
        assert!(
            dropped.recv_timeout(std::time::Duration::from_secs(20)).is_ok(),
            "dropping the store hung after the disk filled"
        );
        std::fs::remove_file(filler).unwrap();
    }
    // Opening it again with room, and finding the run stored before the disk filled, is in
    // another process (`tests/full_disk.rs` runs the binary again): this one still holds the
    // broken store's lock.
}

/// What a full disk can leave in the middle of a snapshot (sled writes it under a
/// `.generating` name and renames it once whole): the store opens again, with what it held.
#[test]
fn a_snapshot_a_full_disk_left_unfinished_does_not_lock_the_store_out() {
    let dir = tempfile::tempdir().unwrap();
    let store_dir = dir.path().join("store");
    {
        let store = memval_store::open(&store_dir).unwrap();
        store.put_run(&record("kept", 1)).unwrap();
        store.flush().unwrap();
    }
    for name in ["snap.FFFFFFFFFFFFFFF0.generating", "snap.FFFFFFFFFFFFFFF1.generating"] {
        std::fs::write(store_dir.join(name), b"").unwrap();
    }
    // sled lets go of its lock when its own threads end, shortly after the store is dropped.
    let since = std::time::Instant::now();
    let store = loop {
        match memval_store::open(&store_dir) {
            Err(StoreError::InUse { .. }) if since.elapsed() < std::time::Duration::from_secs(20) => {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            opened => break opened.expect("a store with an unfinished snapshot opens"),
        }
    };
    assert_eq!(store.runs().unwrap().iter().map(|r| r.header.run_id.as_str()).collect::<Vec<_>>(), ["kept"]);
    let left: Vec<_> = std::fs::read_dir(&store_dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".generating"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
