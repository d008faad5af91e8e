//! The stdout contract of `scripts/llama.sh build`, on a machine state like a fresh one:
//! no cmake on PATH, so the script installs it with an `apt-get` that (like the real one)
//! prints progress on stdout, and a cmake that does the same. `scripts/test.sh` turns the
//! script's stdout into `export` lines, so any line but the two paths breaks a fresh CI run
//! (issue 8: "export: `libarchive13:amd64.': not a valid identifier").

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn write_exe(path: &Path, body: &str) {
    fs::write(path, body).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

/// Which real program `name` is, from the runner's PATH.
fn which(name: &str) -> PathBuf {
    let out = Command::new("bash").args(["-c", &format!("command -v {name}")]).output().unwrap();
    assert!(out.status.success(), "{name} is needed by this test");
    String::from_utf8(out.stdout).unwrap().trim().into()
}

/// A PATH holding only what llama.sh needs besides cmake, plus a noisy fake `apt-get`
/// that installs a noisy fake `cmake` into that same PATH.
fn fresh_machine(root: &Path) -> PathBuf {
    let bin = root.join("bin");
    fs::create_dir_all(&bin).unwrap();
    for tool in ["bash", "tar", "gzip", "mkdir", "cp", "mv", "cat", "dirname", "chmod"] {
        std::os::unix::fs::symlink(which(tool), bin.join(tool)).unwrap();
    }
    let cmake = r#"#!/bin/bash
echo "-- The C compiler identification is GNU 12.2.0"
if [[ $1 == --build ]]; then
  mkdir -p "$2/bin"
  printf '#!/bin/bash\necho fake llama-server\n' > "$2/bin/llama-server"
  chmod +x "$2/bin/llama-server"
  echo "[100%] Built target llama-server"
fi
"#;
    let apt = format!(
        "#!/bin/bash\n\
         echo 'Selecting previously unselected package libarchive13:amd64.'\n\
         echo 'Setting up cmake (3.25.1-1) ...'\n\
         if [[ $1 == install ]]; then cat > '{}' <<'EOF'\n{cmake}EOF\nchmod +x '{}'; fi\n",
        bin.join("cmake").display(),
        bin.join("cmake").display()
    );
    write_exe(&bin.join("apt-get"), &apt);
    bin
}

#[test]
fn build_prints_only_the_two_paths_when_cmake_is_installed_on_the_way() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = fresh_machine(tmp.path());
    let cache = tmp.path().join("cache");
    // The downloads are already there (pip is not the subject): the model, and an sdist
    // holding the llama.cpp source folder the build expects.
    let version = fs::read_to_string(workspace().join("scripts/llama.sh"))
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("LLAMA_CPP_PYTHON=").map(str::to_string))
        .expect("llama.sh names its llama-cpp-python version");
    fs::create_dir_all(cache.join("models")).unwrap();
    fs::write(cache.join("models/SmolLM2-135M-Instruct.Q4_1.gguf"), b"gguf").unwrap();
    let staging = tmp.path().join("staging");
    let src = format!("llama_cpp_python-{version}");
    fs::create_dir_all(staging.join(&src).join("vendor/llama.cpp")).unwrap();
    fs::create_dir_all(cache.join("src")).unwrap();
    let tar = Command::new("tar")
        .arg("-czf")
        .arg(cache.join("src").join(format!("{src}.tar.gz")))
        .arg("-C")
        .arg(&staging)
        .arg(&src)
        .status()
        .unwrap();
    assert!(tar.success());

    let out = Command::new(bin.join("bash"))
        .arg(workspace().join("scripts/llama.sh"))
        .arg("build")
        .env_clear()
        .env("PATH", &bin)
        .env("HOME", tmp.path())
        .env("MEMVAL_LLAMA_CACHE", &cache)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "llama.sh build failed:\n{stderr}");
    // The fake apt-get and cmake really ran (their chatter went to stderr).
    assert!(stderr.contains("libarchive13:amd64"), "apt-get did not run:\n{stderr}");
    assert!(stderr.contains("Built target llama-server"), "cmake did not run:\n{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        vec![
            format!("MEMVAL_LLAMA_SERVER={}", cache.join("bin/llama-server").display()),
            format!("MEMVAL_LLAMA_MODEL={}", cache.join("models/SmolLM2-135M-Instruct.Q4_1.gguf").display()),
        ],
        "stdout must be exactly the two paths; stderr was:\n{stderr}"
    );
    assert!(cache.join("bin/llama-server").is_file());
}
