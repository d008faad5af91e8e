//! Tier B labels: sentences about what code does, how it relates to other code and how it
//! is configured, written about files the Tier A labels leave alone.
//!
//! Each label is one sentence in a memory of its own (so the 8-claim cap never drops it), and
//! its verdict follows from a fact this module read with its own regexes, or from an edit it
//! made in git on 2026-03-15, after the memories' date:
//!
//! | construction | sentence | label |
//! |---|---|---|
//! | calls | "`X` in `a` calls `Y` [from `b`]." — `Y(` occurs in `X`'s body, `Y` a unique function | VALID |
//! | calls, callee replaced | same; then `Y` in `X`'s body is renamed `Y_v2`, a copy of `Y` appended to `a` | STALE |
//! | calls, never | "`X` in `a` calls `Z`." — `Z` a unique function that `X`'s body never names | CONTRADICTED |
//! | calls, caller deleted | the `X` of a true calls sentence is deleted (mentioned nowhere else) | CONTRADICTED |
//! | field | "The `S` struct in `a` has a field `f`." (Python: "class ... attribute", `self.f =`) | VALID |
//! | field renamed | same; then `f` is renamed in `a` (it occurs in no other file) | STALE |
//! | field, never | `f` a field of another type of `a` (or a function of `a`), not named in `S` | CONTRADICTED |
//! | async | "`X` in `a` is async." for `async fn`/`async def`; "is synchronous." for a plain one | VALID |
//! | async, never | "`X` in `a` is async." for a plain function | CONTRADICTED |
//! | async removed | "`X` in `a` is async."; then `async` is removed from its definition | STALE |
//! | default feature | "`Cargo.toml` enables the `f` feature by default." | VALID |
//! | default feature, never | `f` a declared feature that is not a default one | CONTRADICTED |
//! | default feature removed | same as VALID; then `f` is taken out of the default list | STALE |
//! | constant | "`NAME` in `a` defaults to V." (`const NAME: T = V;`, `NAME = V`) | VALID |
//! | constant changed | same; then the value is changed | STALE |
//!
//! Rules only, memval proves some of these from the anchors (a deleted caller is gone, a
//! constant's value is in the file); the rest it reports not checked, which is what the
//! LLM investigator is for.

use super::*;

/// Where a construction may be applied, and what it must leave alone.
pub(super) struct Input<'a> {
    pub root: &'a Path,
    pub lang: Lang,
    pub is_crate: bool,
    /// Every source file of the tree, as committed on the base date.
    pub files: &'a [FileData],
    pub wordstat: &'a HashMap<String, WordStat>,
    /// Files the Tier A labels name or the Tier A refactors changed: never edited, never a
    /// subject.
    pub busy_files: &'a HashSet<String>,
    /// Files the Tier A refactors renamed, moved, deleted or edited: no callee lives there.
    pub changed_files: &'a HashSet<String>,
    /// Names in Tier A labels and refactors.
    pub busy_names: &'a HashSet<String>,
    /// Tier B labels wanted for this tree.
    pub quota: usize,
    /// Where in [`CYCLE`] this tree starts, so small quotas still cover every construction
    /// across the trees.
    pub offset: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Construction {
    CallsValid,
    CallsStale,
    CallsNever,
    CallsDeleted,
    FieldValid,
    FieldStale,
    FieldNever,
    SyncValid,
    AsyncNever,
    AsyncStale,
    FeatureValid,
    FeatureNever,
    FeatureStale,
    ConstValid,
    ConstStale,
}

/// One third VALID, one third STALE, one third CONTRADICTED, interleaved.
const CYCLE: [Construction; 15] = [
    Construction::CallsValid,
    Construction::FieldValid,
    Construction::CallsStale,
    Construction::SyncValid,
    Construction::FieldNever,
    Construction::FeatureValid,
    Construction::CallsNever,
    Construction::FieldStale,
    Construction::AsyncNever,
    Construction::ConstStale,
    Construction::FeatureNever,
    Construction::CallsDeleted,
    Construction::FeatureStale,
    Construction::ConstValid,
    Construction::AsyncStale,
];

/// A change to one file, applied after every label is chosen.
enum Edit {
    /// Rename `from` to `to` (whole words) in 0-based lines `start..=end`.
    RenameIn { start: usize, end: usize, from: String, to: String },
    /// Rename `from` to `to` (whole words) in the whole file.
    Rename { from: String, to: String },
    /// Append a block at the end.
    Append(String),
    /// Delete 0-based lines `start..=end` (and one blank line after them).
    Delete { start: usize, end: usize },
    /// Replace 0-based line `line`.
    SetLine { line: usize, text: String },
}

struct State<'a> {
    inp: &'a Input<'a>,
    /// Top-level definitions per name, over the whole tree: (file index, def index).
    top: HashMap<&'a str, Vec<(usize, usize)>>,
    /// Files a Tier B label is about or edits.
    taken_files: HashSet<String>,
    /// Names a Tier B label mentions.
    taken_names: HashSet<String>,
    edits: BTreeMap<String, Vec<Edit>>,
    manifest_edit: Option<(String, String)>,
    fragments: Vec<Fragment>,
    notes: Vec<String>,
}

fn call_re() -> &'static Regex {
    static RE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| Regex::new(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(").unwrap())
}

fn rust_field_re() -> &'static Regex {
    static RE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^    (?:pub(?:\s*\([^)]*\))?\s+)?([a-z_][a-z0-9_]*)\s*:[^:]").unwrap())
}

fn py_attr_re() -> &'static Regex {
    static RE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^\s+self\.([a-z_][a-z0-9_]*)\s*(?::[^=]+)?=[^=]").unwrap())
}

fn rust_const_re() -> &'static Regex {
    static RE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^(?:pub(?:\s*\([^)]*\))?\s+)?(?:const|static)\s+([A-Z][A-Z0-9_]+)\s*:\s*[A-Za-z0-9_]+\s*=\s*([0-9][0-9_]*|true|false)\s*;\s*(?://.*)?$").unwrap()
    })
}

fn py_const_re() -> &'static Regex {
    static RE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^([A-Z][A-Z0-9_]+)\s*(?::\s*[A-Za-z]+\s*)?=\s*([0-9]+|True|False)\s*(?:#.*)?$").unwrap()
    })
}

const KEYWORDS: [&str; 12] =
    ["self", "super", "crate", "Self", "type", "match", "where", "async", "await", "yield", "return", "lambda"];

/// Add up to `inp.quota` Tier B labels; their edits are committed on 2026-03-15 15:00.
pub(super) fn build(inp: &Input<'_>, rng: &mut Rng, notes: &mut Vec<String>) -> Result<Vec<Fragment>> {
    let mut top: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
    for (fi, f) in inp.files.iter().enumerate() {
        for (di, d) in f.defs.iter().enumerate() {
            if d.indent == 0 {
                top.entry(d.name.as_str()).or_default().push((fi, di));
            }
        }
    }
    let mut st = State {
        inp,
        top,
        taken_files: HashSet::new(),
        taken_names: HashSet::new(),
        edits: BTreeMap::new(),
        manifest_edit: None,
        fragments: Vec::new(),
        notes: Vec::new(),
    };
    let mut done = 0;
    let mut misses = 0;
    let mut k = inp.offset;
    // Walk the cycle until the quota is met or a whole cycle in a row found nothing.
    while done < inp.quota && misses < CYCLE.len() {
        let c = CYCLE[k % CYCLE.len()];
        k += 1;
        if st.construct(c, rng)? {
            done += 1;
            misses = 0;
        } else {
            misses += 1;
        }
    }
    st.apply()?;
    git(inp.root, &["add", "-A"], None)?;
    if !git(inp.root, &["status", "--porcelain"], None)?.trim().is_empty() {
        git(inp.root, &["commit", "-q", "--no-verify", "-m", "rework internals"], Some(&refactor_date(15)))?;
    }
    notes.append(&mut st.notes);
    Ok(st.fragments)
}

impl<'a> State<'a> {
    fn lang_sep(&self) -> &'static str {
        if self.inp.lang == Lang::Rust {
            "::"
        } else {
            "."
        }
    }

    /// A name a label may use: long enough to be unambiguous, not a Tier A or Tier B name.
    fn free_name(&self, name: &str) -> bool {
        name.len() >= 5
            && !name.starts_with("test")
            && !name.starts_with("__")
            && !COMMON_NAMES.contains(&name)
            && !KEYWORDS.contains(&name)
            && !self.inp.busy_names.contains(name)
            && !self.taken_names.contains(name)
    }

    /// Files that may be a label's subject (and be edited for it).
    fn subject_files(&self, rng: &mut Rng) -> Vec<usize> {
        let mut v: Vec<usize> = (0..self.inp.files.len())
            .filter(|&i| {
                let p = &self.inp.files[i].path;
                !self.inp.busy_files.contains(p) && !self.taken_files.contains(p) && !p.contains(' ')
            })
            .collect();
        rng.shuffle(&mut v);
        v
    }

    /// How a definition is written in a sentence: `Type::method` / `Class.method` / `name`.
    fn display(&self, d: &Def) -> String {
        match &d.container {
            Some(c) => format!("{c}{}{}", self.lang_sep(), d.name),
            None => d.name.clone(),
        }
    }

    /// A function of file `fi` that can be named without ambiguity: top-level and unique in
    /// the tree, or a method whose name is unique in its file.
    fn subject_fn(&self, fi: usize, di: usize) -> bool {
        let f = &self.inp.files[fi];
        let d = &f.defs[di];
        if !(d.kind == "fn" || d.kind == "def") || !self.free_name(&d.name) {
            return false;
        }
        if let Some(c) = &d.container {
            if self.inp.busy_names.contains(c) || self.taken_names.contains(c) {
                return false;
            }
        }
        match (d.indent, &d.container) {
            (0, _) => {
                self.top.get(d.name.as_str()).is_some_and(|v| v.len() == 1)
                    && f.defs.iter().filter(|x| x.name == d.name).count() == 1
            }
            (_, Some(_)) => f.defs.iter().filter(|x| x.name == d.name).count() == 1,
            _ => false,
        }
    }

    /// 0-based line range of a definition, when it can be matched with confidence.
    fn extent(&self, fi: usize, di: usize) -> Option<(usize, usize)> {
        let f = &self.inp.files[fi];
        let lines = f.lines();
        let d = &f.defs[di];
        match self.inp.lang {
            Lang::Rust if d.indent == 0 => rust_extent(&lines, d.line as usize - 1),
            Lang::Rust => None,
            Lang::Python => py_extent(&lines, d.line as usize - 1),
        }
    }

    /// Unique top-level functions called in a definition's body (after its first line),
    /// with comments cut off and method calls (`.name(`) left out.
    fn callees(&self, fi: usize, start: usize, end: usize, own: &str) -> Vec<String> {
        let lines = self.inp.files[fi].lines();
        let def_line = (start..=end).find(|&i| !lines[i].trim_start().starts_with(['#', '/', '@'])).unwrap_or(start);
        let mut out: Vec<String> = Vec::new();
        for l in &lines[def_line + 1..=end] {
            let code = match self.inp.lang {
                Lang::Rust => l.split("//").next().unwrap_or(""),
                Lang::Python => l.split('#').next().unwrap_or(""),
            };
            for c in call_re().captures_iter(code) {
                let m = c.get(1).unwrap();
                let before = code[..m.start()].chars().next_back();
                if before == Some('.') {
                    continue;
                }
                let name = m.as_str();
                if name == own || out.iter().any(|o| o == name) || !self.callable(name) {
                    continue;
                }
                out.push(name.to_owned());
            }
        }
        out
    }

    /// A unique top-level function, in a file Tier A did not change, free to be named.
    fn callable(&self, name: &str) -> bool {
        let Some(v) = self.top.get(name) else { return false };
        if v.len() != 1 || !self.free_name(name) {
            return false;
        }
        let (fi, di) = v[0];
        let f = &self.inp.files[fi];
        let d = &f.defs[di];
        (d.kind == "fn" || d.kind == "def")
            && !self.inp.changed_files.contains(&f.path)
            && f.defs.iter().filter(|x| x.name == name).count() == 1
    }

    /// A name not used anywhere in the tree, made from `base`.
    fn new_name(&self, base: &str, rng: &mut Rng) -> Option<String> {
        let camel = base.starts_with(|c: char| c.is_ascii_uppercase());
        let opts: [&str; 4] = if camel { ["V2", "Next", "Inner", "Impl"] } else { ["_v2", "_next", "_inner", "_impl"] };
        for _ in 0..8 {
            let n = format!("{base}{}", rng.pick(&opts));
            if !self.inp.wordstat.contains_key(&n)
                && !self.inp.busy_names.contains(&n)
                && !self.taken_names.contains(&n)
            {
                return Some(n);
            }
        }
        None
    }

    fn push(&mut self, text: String, label: Label, style: &'static str, file: &str, names: &[&str]) {
        self.taken_files.insert(file.to_owned());
        for n in names {
            self.taken_names.insert((*n).to_owned());
        }
        let mut f = frag(text, label, style);
        f.alone = true;
        self.fragments.push(f);
    }

    fn edit(&mut self, file: &str, e: Edit) {
        self.edits.entry(file.to_owned()).or_default().push(e);
    }

    fn construct(&mut self, c: Construction, rng: &mut Rng) -> Result<bool> {
        use Construction::*;
        Ok(match c {
            CallsValid | CallsStale | CallsNever | CallsDeleted => self.calls(c, rng)?,
            FieldValid | FieldStale | FieldNever => self.field(c, rng),
            SyncValid | AsyncNever | AsyncStale => self.asyncness(c, rng),
            FeatureValid | FeatureNever | FeatureStale => self.feature(c, rng)?,
            ConstValid | ConstStale => self.constant(c, rng),
        })
    }

    // --- calls -------------------------------------------------------------------------

    fn calls(&mut self, c: Construction, rng: &mut Rng) -> Result<bool> {
        let inp = self.inp;
        let files = self.subject_files(rng);
        for fi in files {
            let f = &inp.files[fi];
            let mut defs: Vec<usize> = (0..f.defs.len()).filter(|&di| self.subject_fn(fi, di)).collect();
            rng.shuffle(&mut defs);
            for di in defs {
                let d = &f.defs[di];
                if c == Construction::CallsDeleted && d.indent != 0 {
                    continue;
                }
                let Some((start, end)) = self.extent(fi, di) else { continue };
                if end - start < 2 || end - start > 120 {
                    continue;
                }
                let lines = f.lines();
                let body: String = lines[start..=end].join("\n");
                let callees = self.callees(fi, start, end, &d.name);
                let subject = self.display(d);
                let path = f.path.clone();
                match c {
                    Construction::CallsNever => {
                        // A unique function of the same folder (else anywhere) the body never names.
                        let in_body: HashSet<&str> = words(&body).collect();
                        let mut cands: Vec<&str> = self
                            .top
                            .keys()
                            .copied()
                            .filter(|n| !in_body.contains(n) && *n != d.name && self.callable(n))
                            .collect();
                        cands.sort_unstable();
                        let near: Vec<&str> = cands
                            .iter()
                            .copied()
                            .filter(|n| dir_of(&self.inp.files[self.top[n][0].0].path) == dir_of(&path))
                            .collect();
                        let pool = if near.is_empty() { &cands } else { &near };
                        if pool.is_empty() {
                            continue;
                        }
                        let z = pool[rng.below(pool.len())].to_owned();
                        let (text, arch) = self.calls_text(&subject, &path, &z);
                        let l = Label::new(
                            Kind::Calls,
                            V::Contradicted,
                            format!("{} never names {z} (its body: {path}:{}-{})", d.name, start + 1, end + 1),
                        )
                        .path(&path)
                        .symbol(&subject)
                        .key(&z);
                        self.push(text, l, arch, &path, &[&d.name, &z]);
                        return Ok(true);
                    }
                    _ => {
                        if callees.is_empty() {
                            continue;
                        }
                        let y = callees[rng.below(callees.len())].clone();
                        let (text, arch) = self.calls_text(&subject, &path, &y);
                        match c {
                            Construction::CallsValid => {
                                let l = Label::new(
                                    Kind::Calls,
                                    V::Valid,
                                    format!("{} calls {y} in {path}:{}-{}", d.name, start + 1, end + 1),
                                )
                                .path(&path)
                                .symbol(&subject)
                                .key(&y);
                                self.push(text, l, arch, &path, &[&d.name, &y]);
                            }
                            Construction::CallsStale => {
                                let (yfi, ydi) = self.top[y.as_str()][0];
                                let Some((ys, ye)) = self.extent(yfi, ydi) else { continue };
                                let Some(y2) = self.new_name(&y, rng) else { continue };
                                let ylines = self.inp.files[yfi].lines();
                                let word = Regex::new(&format!(r"\b{}\b", regex::escape(&y)))?;
                                let copy = word.replace_all(&ylines[ys..=ye].join("\n"), y2.as_str()).into_owned();
                                self.edit(
                                    &path,
                                    Edit::RenameIn { start: start + 1, end, from: y.clone(), to: y2.clone() },
                                );
                                self.edit(&path, Edit::Append(copy));
                                self.notes.push(format!(
                                    "tier B: {} in {path} now calls {y2} (a copy of {y} appended to {path})",
                                    d.name
                                ));
                                let l = Label::new(
                                    Kind::Calls,
                                    V::Stale,
                                    format!("{} called {y}; now calls {y2}, a copy appended to {path}", d.name),
                                )
                                .path(&path)
                                .symbol(&subject)
                                .key(&y)
                                .succ(y2.clone());
                                self.push(text, l, arch, &path, &[&d.name, &y, &y2]);
                            }
                            _ => {
                                // Deleted: only a function named nowhere outside its own definition.
                                let ws = self.inp.wordstat.get(&d.name).copied().unwrap_or_default();
                                let inside = words(&body).filter(|w| *w == d.name).count() as u32;
                                if ws.count != inside {
                                    continue;
                                }
                                if self.inp.lang == Lang::Python
                                    && !python_cuts_ok(self.inp.root, &[(path.clone(), start, end)])?
                                        .first()
                                        .copied()
                                        .unwrap_or(false)
                                {
                                    continue;
                                }
                                self.edit(&path, Edit::Delete { start, end });
                                self.notes.push(format!("tier B: delete {} from {path}", d.name));
                                let l = Label::new(
                                    Kind::Calls,
                                    V::Contradicted,
                                    format!("{} (which called {y}) deleted from {path}", d.name),
                                )
                                .path(&path)
                                .symbol(&subject)
                                .key(&y);
                                self.push(text, l, arch, &path, &[&d.name, &y]);
                            }
                        }
                        return Ok(true);
                    }
                }
            }
        }
        Ok(false)
    }

    /// The sentence, and its style: "architectural" when the callee lives in another file.
    fn calls_text(&self, subject: &str, path: &str, callee: &str) -> (String, &'static str) {
        let cfile = &self.inp.files[self.top[callee][0].0].path;
        if cfile == path {
            (format!("`{subject}` in `{path}` calls `{callee}`."), "calls")
        } else {
            (format!("`{subject}` in `{path}` calls `{callee}` from `{cfile}`."), "calls-across")
        }
    }

    // --- fields ------------------------------------------------------------------------

    /// Field (Rust) or `self.` attribute (Python) names of a type definition's extent.
    fn fields(&self, lines: &[&str], start: usize, end: usize) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for l in &lines[start..=end] {
            let c = match self.inp.lang {
                Lang::Rust => rust_field_re().captures(l),
                Lang::Python => py_attr_re().captures(l),
            };
            if let Some(c) = c {
                let n = c[1].to_owned();
                if !out.contains(&n) && n.len() >= 3 && !KEYWORDS.contains(&n.as_str()) {
                    out.push(n);
                }
            }
        }
        out
    }

    fn field(&mut self, c: Construction, rng: &mut Rng) -> bool {
        let inp = self.inp;
        let (kind_word, member) = match self.inp.lang {
            Lang::Rust => ("struct", "a field"),
            Lang::Python => ("class", "an attribute"),
        };
        for fi in self.subject_files(rng) {
            let f = &inp.files[fi];
            let lines = f.lines();
            let mut types: Vec<usize> = (0..f.defs.len())
                .filter(|&di| {
                    let d = &f.defs[di];
                    (d.kind == "struct" || d.kind == "class")
                        && d.indent == 0
                        && self.free_name(&d.name)
                        && self.top.get(d.name.as_str()).is_some_and(|v| v.len() == 1)
                })
                .collect();
            rng.shuffle(&mut types);
            // Fields of every type of the file, for the CONTRADICTED case.
            let mut all_fields: Vec<(usize, String)> = Vec::new();
            let mut extents: HashMap<usize, (usize, usize)> = HashMap::new();
            for (di, d) in f.defs.iter().enumerate() {
                if (d.kind == "struct" || d.kind == "class") && d.indent == 0 {
                    if let Some((s, e)) = self.extent(fi, di) {
                        extents.insert(di, (s, e));
                        for n in self.fields(&lines, s, e) {
                            all_fields.push((di, n));
                        }
                    }
                }
            }
            for di in types {
                let Some(&(s, e)) = extents.get(&di) else { continue };
                let d = &f.defs[di];
                let own = self.fields(&lines, s, e);
                // A type with fields (or attributes), so "has a field" is a fair question.
                if own.is_empty() {
                    continue;
                }
                let path = f.path.clone();
                let pick = match c {
                    Construction::FieldNever => {
                        let type_text = lines[s..=e].join("\n");
                        let in_type: HashSet<&str> = words(&type_text).collect();
                        let mut cands: Vec<String> = all_fields
                            .iter()
                            .filter(|(o, n)| {
                                *o != di
                                    && !in_type.contains(n.as_str())
                                    && n.len() >= 4
                                    && !COMMON_NAMES.contains(&n.as_str())
                            })
                            .map(|(_, n)| n.clone())
                            .collect();
                        if cands.is_empty() {
                            // A function of the same file, as a field name.
                            cands = f
                                .defs
                                .iter()
                                .filter(|x| x.kind == "fn" || x.kind == "def")
                                .map(|x| x.name.clone())
                                .filter(|n| {
                                    !in_type.contains(n.as_str())
                                        && n.len() >= 4
                                        && !n.starts_with('_')
                                        && !COMMON_NAMES.contains(&n.as_str())
                                })
                                .collect();
                        }
                        cands.dedup();
                        if cands.is_empty() {
                            continue;
                        }
                        cands[rng.below(cands.len())].clone()
                    }
                    _ => {
                        let ok: Vec<&String> = own
                            .iter()
                            .filter(|n| {
                                if c != Construction::FieldStale {
                                    return true;
                                }
                                let ws = self.inp.wordstat.get(n.as_str()).copied().unwrap_or_default();
                                n.len() >= 4
                                    && !ws.multi_file
                                    && ws.count <= 30
                                    && !self.inp.busy_names.contains(n.as_str())
                            })
                            .collect();
                        if ok.is_empty() {
                            continue;
                        }
                        ok[rng.below(ok.len())].clone()
                    }
                };
                if self.inp.busy_names.contains(&pick) || self.taken_names.contains(&pick) {
                    continue;
                }
                let text = format!("The `{}` {kind_word} in `{path}` has {member} `{pick}`.", d.name);
                let base = Label::new(Kind::Field, V::Valid, "").path(&path).symbol(&d.name).key(&pick);
                let name = d.name.clone();
                let l = match c {
                    Construction::FieldValid => {
                        Label { why: format!("{pick} is a field of {name} ({path}:{}-{})", s + 1, e + 1), ..base }
                    }
                    Construction::FieldNever => Label {
                        expected: V::Contradicted,
                        why: format!("{pick} is not named in {name} ({path}:{}-{})", s + 1, e + 1),
                        ..base
                    },
                    _ => {
                        let Some(new) = self.new_name(&pick, rng) else { continue };
                        self.edit(&path, Edit::Rename { from: pick.clone(), to: new.clone() });
                        self.notes.push(format!("tier B: rename field {pick} -> {new} in {path}"));
                        Label {
                            expected: V::Stale,
                            why: format!("field {pick} of {name} renamed to {new}"),
                            successor: Some(new),
                            ..base
                        }
                    }
                };
                self.push(text, l, "field", &path, &[&name, &pick]);
                return true;
            }
        }
        false
    }

    // --- async -------------------------------------------------------------------------

    /// Whether a function is `async`, or `None` when its signature mentions futures (a
    /// plain `fn` returning one is neither clearly async nor clearly synchronous).
    fn is_async(&self, fi: usize, di: usize) -> Option<bool> {
        let f = &self.inp.files[fi];
        let lines = f.lines();
        let d = &f.defs[di];
        let l0 = d.line as usize - 1;
        let head = lines[l0];
        let is_async = match self.inp.lang {
            Lang::Rust => head.split("fn ").next().is_some_and(|pre| pre.split_whitespace().any(|w| w == "async")),
            Lang::Python => head.trim_start().starts_with("async def"),
        };
        // The signature: up to the first `{` / `:` at the end of a line, at most 8 lines.
        let mut sig = String::new();
        for l in lines.iter().skip(l0).take(8) {
            sig.push_str(l);
            let t = l.trim_end();
            if t.ends_with('{') || t.ends_with(';') || (self.inp.lang == Lang::Python && t.ends_with(':')) {
                break;
            }
        }
        if !is_async && ["Future", "Poll", "async", "await", "Stream", "Pin<"].iter().any(|w| sig.contains(w)) {
            return None;
        }
        Some(is_async)
    }

    fn asyncness(&mut self, c: Construction, rng: &mut Rng) -> bool {
        let inp = self.inp;
        // Prefer an async function for VALID half of the time, when the tree has any.
        let want_async = match c {
            Construction::AsyncStale => true,
            Construction::AsyncNever => false,
            _ => rng.chance(0.5),
        };
        for pass in 0..2 {
            let want = if pass == 0 {
                want_async
            } else if c == Construction::SyncValid {
                !want_async
            } else {
                break;
            };
            for fi in self.subject_files(rng) {
                let f = &inp.files[fi];
                let mut defs: Vec<usize> = (0..f.defs.len())
                    .filter(|&di| self.subject_fn(fi, di) && self.is_async(fi, di) == Some(want))
                    .collect();
                if defs.is_empty() {
                    continue;
                }
                rng.shuffle(&mut defs);
                let di = defs[0];
                let d = &f.defs[di];
                let path = f.path.clone();
                let subject = self.display(d);
                let name = d.name.clone();
                let (text, l) = match (c, want) {
                    (Construction::SyncValid, true) => (
                        format!("`{subject}` in `{path}` is async."),
                        Label::new(Kind::Async, V::Valid, format!("async {name} at {path}:{}", d.line)).key("async"),
                    ),
                    (Construction::SyncValid, false) => (
                        format!("`{subject}` in `{path}` is synchronous."),
                        Label::new(Kind::Async, V::Valid, format!("plain {name} at {path}:{}", d.line))
                            .key("synchronous"),
                    ),
                    (Construction::AsyncNever, _) => (
                        format!("`{subject}` in `{path}` is async."),
                        Label::new(Kind::Async, V::Contradicted, format!("{name} at {path}:{} is not async", d.line))
                            .key("async"),
                    ),
                    _ => {
                        let l0 = d.line as usize - 1;
                        let head = f.lines()[l0];
                        let new = match self.inp.lang {
                            Lang::Rust => head.replacen("async ", "", 1),
                            Lang::Python => head.replacen("async def", "def", 1),
                        };
                        self.edit(&path, Edit::SetLine { line: l0, text: new });
                        self.notes.push(format!("tier B: {name} in {path} is no longer async"));
                        (
                            format!("`{subject}` in `{path}` is async."),
                            Label::new(
                                Kind::Async,
                                V::Stale,
                                format!("async removed from {name} at {path}:{}", d.line),
                            )
                            .key("async"),
                        )
                    }
                };
                let l = l.path(&path).symbol(&subject);
                self.push(text, l, "async", &path, &[&name]);
                return true;
            }
        }
        false
    }

    // --- default features (Cargo.toml) -------------------------------------------------

    fn feature(&mut self, c: Construction, rng: &mut Rng) -> Result<bool> {
        if !self.inp.is_crate || (c == Construction::FeatureStale && self.manifest_edit.is_some()) {
            return Ok(false);
        }
        let Ok(text) = std::fs::read_to_string(self.inp.root.join("Cargo.toml")) else { return Ok(false) };
        let Some((declared, default, _)) = features(&text) else { return Ok(false) };
        let removed: Option<String> = self.manifest_edit.as_ref().map(|(f, _)| f.clone());
        let taken = |f: &String| self.taken_names.contains(&format!("feature:{f}")) || removed.as_ref() == Some(f);
        let pool: Vec<String> = match c {
            // Not reachable from the default list either (`default = ["std"]`, `std = ["alloc"]`
            // turns `alloc` on by default too).
            Construction::FeatureNever => {
                let on = enabled_by_default(&declared, &default);
                declared.iter().map(|(n, _)| n).filter(|f| !on.contains(*f) && !taken(f)).cloned().collect()
            }
            _ => default.iter().filter(|f| declared.iter().any(|(n, _)| n == *f) && !taken(f)).cloned().collect(),
        };
        if pool.is_empty() {
            return Ok(false);
        }
        let f = pool[rng.below(pool.len())].clone();
        // Not "`features.default` in `Cargo.toml` includes `f`": memval makes that the claim
        // "config key `features.default` is set in Cargo.toml", which drops what was said.
        let text = format!("`Cargo.toml` enables the `{f}` feature by default.");
        let l = match c {
            Construction::FeatureValid => {
                Label::new(Kind::Feature, V::Valid, format!("default features: {}", default.join(", ")))
            }
            Construction::FeatureNever => Label::new(
                Kind::Feature,
                V::Contradicted,
                format!("{f} is declared but not a default feature ({})", default.join(", ")),
            ),
            _ => {
                let rest: Vec<String> = default.iter().filter(|x| **x != f).map(|x| format!("\"{x}\"")).collect();
                let new_line = format!("default = [{}]", rest.join(", "));
                self.manifest_edit = Some((f.clone(), new_line.clone()));
                self.notes.push(format!("tier B: Cargo.toml: {f} taken out of the default features"));
                Label::new(Kind::Feature, V::Stale, format!("{f} taken out of the default features ({new_line})"))
            }
        };
        let l = l.path("Cargo.toml").key("feature").symbol(&f);
        self.taken_names.insert(format!("feature:{f}"));
        let mut fr = frag(text, l, "feature");
        fr.alone = true;
        self.fragments.push(fr);
        Ok(true)
    }

    // --- constants ---------------------------------------------------------------------

    fn constant(&mut self, c: Construction, rng: &mut Rng) -> bool {
        let inp = self.inp;
        for fi in self.subject_files(rng) {
            let f = &inp.files[fi];
            let lines = f.lines();
            let re = match self.inp.lang {
                Lang::Rust => rust_const_re(),
                Lang::Python => py_const_re(),
            };
            let mut cands: Vec<(usize, String, String)> = Vec::new();
            for (i, l) in lines.iter().enumerate() {
                if let Some(m) = re.captures(l) {
                    cands.push((i, m[1].to_owned(), m[2].to_owned()));
                }
            }
            // Set once in the file, and a name no label uses.
            let cands: Vec<(usize, String, String)> = cands
                .iter()
                .filter(|(_, n, _)| cands.iter().filter(|(_, m, _)| m == n).count() == 1 && n.len() >= 4)
                .filter(|(_, n, _)| !self.inp.busy_names.contains(n) && !self.taken_names.contains(n))
                .cloned()
                .collect();
            if cands.is_empty() {
                continue;
            }
            let (line, name, value) = cands[rng.below(cands.len())].clone();
            let path = f.path.clone();
            let text = format!("`{name}` in `{path}` defaults to {value}.");
            let l = if c == Construction::ConstValid {
                Label::new(Kind::Const, V::Valid, format!("{name} = {value} at {path}:{}", line + 1))
            } else {
                let new = match value.as_str() {
                    "true" => "false".to_owned(),
                    "false" => "true".to_owned(),
                    "True" => "False".to_owned(),
                    "False" => "True".to_owned(),
                    v => {
                        let n: u64 = v.replace('_', "").parse().unwrap_or(0);
                        if n == 0 {
                            "1".to_owned()
                        } else {
                            (n.saturating_mul(2)).to_string()
                        }
                    }
                };
                let old = lines[line];
                // The literal is the last occurrence of the value before the terminator.
                let Some(pos) = old.rfind(&value) else { continue };
                let new_line = format!("{}{new}{}", &old[..pos], &old[pos + value.len()..]);
                self.edit(&path, Edit::SetLine { line, text: new_line });
                self.notes.push(format!("tier B: {name} in {path}: {value} -> {new}"));
                Label::new(Kind::Const, V::Stale, format!("{name} changed from {value} to {new}")).succ(new)
            };
            let mut l = l.path(&path);
            l.key = Some(name.clone());
            self.push(text, l, "const", &path, &[&name]);
            return true;
        }
        false
    }

    // --- applying the edits ------------------------------------------------------------

    fn apply(&mut self) -> Result<()> {
        for (path, edits) in &self.edits {
            let full = self.inp.root.join(path);
            let text = std::fs::read_to_string(&full)?;
            let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
            let mut append: Vec<String> = Vec::new();
            let mut delete: Option<(usize, usize)> = None;
            for e in edits {
                match e {
                    Edit::RenameIn { start, end, from, to } => {
                        let re = Regex::new(&format!(r"\b{}\b", regex::escape(from)))?;
                        for l in &mut lines[*start..=*end] {
                            *l = re.replace_all(l, to.as_str()).into_owned();
                        }
                    }
                    Edit::Rename { from, to } => {
                        let re = Regex::new(&format!(r"\b{}\b", regex::escape(from)))?;
                        for l in &mut lines {
                            *l = re.replace_all(l, to.as_str()).into_owned();
                        }
                    }
                    Edit::Append(block) => append.push(block.clone()),
                    Edit::SetLine { line, text } => lines[*line] = text.clone(),
                    Edit::Delete { start, end } => delete = Some((*start, *end)),
                }
            }
            if let Some((start, end)) = delete {
                let mut after = end + 1;
                if after < lines.len()
                    && lines[after].trim().is_empty()
                    && (start == 0 || lines[start - 1].trim().is_empty())
                {
                    after += 1;
                }
                lines.drain(start..after);
            }
            let mut out = lines.join("\n");
            for block in append {
                if !out.ends_with('\n') {
                    out.push('\n');
                }
                out.push('\n');
                out.push_str(&block);
                out.push('\n');
            }
            std::fs::write(&full, out)?;
        }
        if let Some((_, new_text)) = &self.manifest_edit {
            let path = self.inp.root.join("Cargo.toml");
            let text = std::fs::read_to_string(&path)?;
            std::fs::write(&path, new_text_for(&text, new_text))?;
        }
        Ok(())
    }
}

/// Features a manifest's default list turns on, directly or through other features.
fn enabled_by_default(declared: &[(String, Vec<String>)], default: &[String]) -> HashSet<String> {
    let mut on: HashSet<String> = HashSet::new();
    let mut todo: Vec<String> = default.to_vec();
    while let Some(f) = todo.pop() {
        if !on.insert(f.clone()) {
            continue;
        }
        if let Some((_, items)) = declared.iter().find(|(n, _)| *n == f) {
            todo.extend(items.iter().cloned());
        }
    }
    on
}

/// A `[features]` entry: the feature and what it turns on.
type Feature = (String, Vec<String>);

/// `(declared features, default features, the text of the default entry)` of a manifest's
/// `[features]` table; `None` without one or without a `default` entry.
fn features(manifest: &str) -> Option<(Vec<Feature>, Vec<String>, String)> {
    let mut in_table = false;
    let mut declared = Vec::new();
    let mut default: Option<(Vec<String>, String)> = None;
    let lines: Vec<&str> = manifest.split('\n').collect();
    let key = Regex::new(r#"^\s*"?([A-Za-z0-9_][A-Za-z0-9_.+-]*)"?\s*=\s*(.*)$"#).ok()?;
    let quoted = Regex::new(r#""([^"]*)""#).ok()?;
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i].trim();
        if l.starts_with('[') {
            in_table = l == "[features]";
            i += 1;
            continue;
        }
        if in_table {
            if let Some(c) = key.captures(lines[i]) {
                let name = c[1].to_owned();
                // The value may continue over the next lines until its `]`.
                let mut value = c[2].to_owned();
                let first = i;
                while value.trim_start().starts_with('[') && !value.contains(']') && i + 1 < lines.len() {
                    i += 1;
                    value.push('\n');
                    value.push_str(lines[i]);
                }
                let items: Vec<String> = quoted.captures_iter(&value).map(|q| q[1].to_owned()).collect();
                if name == "default" {
                    default = Some((items, lines[first..=i].join("\n")));
                } else {
                    declared.push((name, items));
                }
            }
        }
        i += 1;
    }
    let (items, text) = default?;
    Some((declared, items, text))
}

/// The manifest with its `[features]` default entry replaced by `new_entry`.
fn new_text_for(manifest: &str, new_entry: &str) -> String {
    match features(manifest) {
        Some((_, _, old)) => manifest.replacen(&old, new_entry, 1),
        None => manifest.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_default_features() {
        let m = "[package]\nname = \"x\"\n\n[features]\ndefault = [\n    \"std\",\n    \"color\",\n]\nstd = []\ncolor = [\"dep:anstream\"]\nextra = []\n\n[dependencies]\nfoo = \"1\"\n";
        let (declared, default, text) = features(m).unwrap();
        let names: Vec<&str> = declared.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, vec!["std", "color", "extra"]);
        let on = enabled_by_default(&declared, &default);
        assert!(on.contains("dep:anstream") && !on.contains("extra"));
        assert_eq!(default, vec!["std", "color"]);
        assert_eq!(text, "default = [\n    \"std\",\n    \"color\",\n]");
        let edited = new_text_for(m, "default = [\"std\"]");
        assert!(edited.contains("[features]\ndefault = [\"std\"]\nstd = []"));
    }
}
