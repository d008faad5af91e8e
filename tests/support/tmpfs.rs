//! A small tmpfs to fill for real: tests of a full disk mount one (memval's CI runs as root),
//! fill it to the last byte, and free it again by removing the filler.

// Only the tests that fill a disk use it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// A tmpfs of `size` mounted on a fresh folder, unmounted when dropped.
pub struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    pub fn mount(size: &str) -> Tmpfs {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .output()
            .expect("mount runs");
        assert!(
            out.status.success(),
            "this test mounts a {size} tmpfs to fill it (it needs root, as CI has): {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Tmpfs { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Fill the filesystem: a file grown until the kernel refuses (ENOSPC).
    pub fn fill(&self) -> PathBuf {
        use std::io::Write;
        let path = self.path().join("filler");
        let mut f = std::fs::File::create(&path).unwrap();
        let block = vec![0u8; 4096];
        loop {
            match f.write(&block) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::StorageFull => break,
                Err(e) => panic!("filling {}: {e}", path.display()),
            }
        }
        // Down to the byte: a short write leaves a few bytes that one more write takes.
        while let Ok(n) = f.write(&[0u8]) {
            if n == 0 {
                break;
            }
        }
        path
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let ok = Command::new("umount")
            .arg(self.dir.path())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            // Something still holds a file there; detach it so the mount does not outlive us.
            let _ = Command::new("umount").arg("-l").arg(self.dir.path()).status();
        }
    }
}
