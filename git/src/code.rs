//! Which files are code and which are tests, as a history search narrows its pathspecs.

/// The extensions the investigator reads as code (its `usage` module's syntaxes).
pub const CODE_EXTENSIONS: &[&str] = &[
    "rs", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "hxx", "java", "kt", "kts", "scala", "cs", "fs", "swift", "dart",
    "m", "mm", "zig", "sol", "groovy", "gradle", "go", "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "vue",
    "svelte", "astro", "php", "py", "pyi", "pyx", "rb", "sh", "bash", "zsh", "pl", "pm", "r", "ex", "exs", "nim", "jl",
];

/// Git pathspecs of the folders and names the investigator calls tests, to leave out of a
/// history search.
pub const TEST_PATHSPECS: &[&str] = &[
    ":(exclude,glob)**/test/**",
    ":(exclude,glob)**/tests/**",
    ":(exclude,glob)**/__tests__/**",
    ":(exclude,glob)**/testdata/**",
    ":(exclude,glob)**/fixtures/**",
    ":(exclude,glob)**/*.test.*",
    ":(exclude,glob)**/*.spec.*",
    ":(exclude,glob)**/*_test.*",
    ":(exclude,glob)**/test_*",
];
