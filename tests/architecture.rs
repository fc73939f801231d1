//! The layers ARCHITECTURE.md states, checked against the source: every `crate::` path a
//! module names (outside its tests) must point to a layer below its own, and the files inside
//! one module must not import each other in a cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Top to bottom; a module may import only modules of rows below its own (never its row).
/// Keep in step with "Layers" in ARCHITECTURE.md.
const LAYERS: &[&[&str]] = &[
    &["main", "lib", "cli"],
    &["channels"],
    &["agent", "schedule"],
    &["backup", "reflector"],
    &["memories"],
    &["embed"],
    &["llm", "health"],
    &["store"],
    &["config", "memory"],
    &["metrics", "base"],
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without comments and without its inline test module.
fn code(text: &str) -> String {
    let cut = text.find("#[cfg(test)]\nmod tests {").unwrap_or(text.len());
    text[..cut]
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Files that are test modules (`#[cfg(test)] mod NAME;`), which may reach anywhere.
fn test_files(files: &[PathBuf]) -> BTreeSet<PathBuf> {
    let mut tests = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        let mut rest = text.as_str();
        while let Some(at) = rest.find("#[cfg(test)]\nmod ") {
            rest = &rest[at + "#[cfg(test)]\nmod ".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if rest[name.len()..].starts_with(';') {
                let stem = file.file_stem().unwrap().to_string_lossy();
                let dir = if stem == "mod" || stem == "lib" {
                    file.parent().unwrap().to_path_buf()
                } else {
                    file.with_extension("")
                };
                tests.insert(dir.join(format!("{name}.rs")));
            }
        }
    }
    tests
}

fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The names a path prefix (`crate::`, `super::`) leads to in `code`: `prefix::a` gives `a`,
/// `prefix::{a, b::c}` gives `a` and `b`.
fn named_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && (c.is_alphanumeric() || c == '_') => {
                        names.insert(ident(&group[i..]).to_string());
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            names.insert(ident(rest).to_string());
        }
    }
    names
}

/// Module path of a file under `src/`: `src/a/b.rs` → [a, b]; `src/a/mod.rs` → [a].
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src()).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

fn top_modules() -> BTreeSet<String> {
    std::fs::read_dir(src())
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect()
}

fn layer_of(module: &str) -> usize {
    LAYERS
        .iter()
        .position(|row| row.contains(&module))
        .unwrap_or_else(|| {
            panic!("module `{module}` is in no layer: add it to LAYERS and ARCHITECTURE.md")
        })
}

#[test]
fn every_module_imports_only_layers_below_it() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let tests = test_files(&files);
    let tops = top_modules();
    let mut upward = Vec::new();
    for file in files.iter().filter(|f| !tests.contains(*f)) {
        let module = module_of(file);
        let me = &module[0];
        let code = code(&std::fs::read_to_string(file).unwrap());
        for other in named_after(&code, "crate::") {
            if &other == me || !tops.contains(&other) {
                continue;
            }
            if layer_of(&other) <= layer_of(me) {
                upward.push(format!("{} uses crate::{other}", file.display()));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports that do not go down a layer:\n{}",
        upward.join("\n")
    );
}

#[test]
fn the_files_of_a_module_import_each_other_without_cycles() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let tests = test_files(&files);
    // Edges between the children of one module: `src/m/a.rs` naming `super::b` or
    // `crate::m::b`, where `b` is another child of `m`.
    let mut edges: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    let mut children: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let module = module_of(file);
        if module.len() >= 2 {
            children
                .entry(module[0].clone())
                .or_default()
                .insert(module[1].clone());
        }
    }
    for file in files.iter().filter(|f| !tests.contains(*f)) {
        let module = module_of(file);
        if module.len() < 2 {
            continue;
        }
        let (parent, me) = (&module[0], &module[1]);
        let code = code(&std::fs::read_to_string(file).unwrap());
        let mut named = named_after(&code, &format!("crate::{parent}::"));
        if module.len() == 2 {
            named.extend(named_after(&code, "super::"));
        }
        for other in named {
            if &other != me && children[parent].contains(&other) {
                edges
                    .entry((parent.clone(), me.clone()))
                    .or_default()
                    .insert(other);
            }
        }
    }
    let mut cycles = Vec::new();
    for ((parent, me), others) in &edges {
        for other in others {
            // A path back from `other` to `me` closes a cycle.
            let mut seen = BTreeSet::new();
            let mut todo = vec![other.clone()];
            while let Some(at) = todo.pop() {
                if &at == me {
                    cycles.push(format!("{parent}: {me} -> {other} -> … -> {me}"));
                    break;
                }
                if seen.insert(at.clone())
                    && let Some(next) = edges.get(&(parent.clone(), at))
                {
                    todo.extend(next.iter().cloned());
                }
            }
        }
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_checker_sees_what_it_must() {
    let code = code(
        "use crate::{a, b::c};\n// crate::hidden\nlet x = crate::d::e();\n#[cfg(test)]\nmod tests {\n use crate::t;\n}",
    );
    assert_eq!(
        named_after(&code, "crate::"),
        ["a", "b", "d"].map(String::from).into()
    );
    assert_eq!(
        named_after("use mycrate::x; use super::{y, z::{w}};", "super::"),
        ["y", "z"].map(String::from).into()
    );
    assert!(named_after("use mycrate::x;", "crate::").is_empty());
}

/// The store's ways of writing a memory, which only the memory service may call (the
/// reflector writes through its batch transaction, `ReflectionTx`, with the service's gate
/// and decision). Keep in step with "One writer of memories" in ARCHITECTURE.md.
const MEMORY_WRITES: &[&str] = &[
    "insert_memory",
    "insert_memory_replacing",
    "insert_memories",
    "refine_memory",
    "reinforce_memory",
    "delete_memory",
    "edit_memory",
    "unarchive_memory",
    "import_memories",
    "merge_memories",
    "supersede_memories",
];

#[test]
fn only_the_memory_service_writes_memories() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let tests = test_files(&files);
    let mut found = Vec::new();
    for file in files.iter().filter(|f| !tests.contains(*f)) {
        let rel = file.strip_prefix(src()).unwrap();
        if rel.starts_with("store") || rel.starts_with("memories") {
            continue;
        }
        let code = code(&std::fs::read_to_string(file).unwrap());
        for name in MEMORY_WRITES {
            if code.contains(&format!(".{name}(")) {
                found.push(format!("{}: {name}", rel.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "memories written outside the memory service: {found:#?}"
    );
    // the scan sees such a call where there is one: the service's own
    let service = code(&std::fs::read_to_string(src().join("memories/mod.rs")).unwrap());
    assert!(service.contains(".insert_memory_replacing("));
}
