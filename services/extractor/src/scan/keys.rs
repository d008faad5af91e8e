//! Configuration keys of a sentence: which `key = value` code spans are settings
//! (`edition = "2021"` is a setting next to `Cargo.toml`, `tokio = "1"` is not).
//!
//! Keys are tied to the nearest file of their sentence: the nearest config file first, else the
//! nearest file that is not a folder (`mentions::nearest`).

use crate::config::Assignment;
use crate::mentions::{nearest, ConfigMention, FileMention};
use crate::paths;

/// The assignments that are settings ([`Assignment::accept`]: a key shaped like a setting,
/// a sentence about configuration, or a manifest key beside a config file).
pub(super) fn settings(
    assignments: Vec<(Assignment, usize, usize)>,
    cue: bool,
    config_file: bool,
) -> Vec<ConfigMention> {
    let mut configs = Vec::new();
    for (a, start, end) in assignments {
        if a.accept(cue, config_file) {
            configs.push(ConfigMention { key: a.key, value: Some(a.value), file: None, start, end, prose: false });
        }
    }
    configs
}

/// Ties each key to the nearest config file of the sentence, else to its nearest file that
/// is not a folder.
pub(super) fn tie_to_files(orig: &str, files: &[FileMention], configs: &mut [ConfigMention]) {
    let plain: Vec<usize> = (0..files.len()).filter(|&i| !paths::folder_like(&files[i].tok)).collect();
    let conf: Vec<usize> = plain.iter().copied().filter(|&i| files[i].tok.has_config_ext()).collect();
    for c in configs.iter_mut() {
        c.file =
            nearest(orig, files, &conf, c.start, c.start).or_else(|| nearest(orig, files, &plain, c.start, c.start));
    }
}
