//! Dedup quality: how well each way of deciding "this new fact is one already stored" does on
//! the labelled pairs of `tests/data/fact_pairs.jsonl` (English and Chinese; same facts
//! reworded, and different facts that share most of their words). A merge is the positive
//! class: precision is the share of merges that were right (a wrong one loses a fact),
//! recall the share of same-fact pairs merged.
//!
//! Modes: terms alone (`memory::dedup::is_near_duplicate`, the term index's rule), cosine
//! alone with the local all-MiniLM-L6-v2 at the reflector's default threshold (and a sweep),
//! `memory::identity::judge` without embeddings, and `judge` given the local model's cosine.
//! Each mode lists its false merges by kind, so a reader sees what fails.
//!
//! `cargo bench --bench dedup_quality`. The cosine modes need the model files:
//! `$MNEME_TEST_MODEL_DIR`, else target/test-models/all-MiniLM-L6-v2 (`bash scripts/test-model`);
//! without them they are skipped. `DEDUP_QUALITY_VERBOSE=1` prints every pair's verdict;
//! `DEDUP_QUALITY_PAIRS=<file>` reads another labelled set of the same shape (a held-out one).

use std::collections::BTreeMap;
use std::path::Path;

use mneme::memory::identity::{self, Verdict};
use mneme::memory::{dedup, text};

/// The reflector's default `reflector_dedup_cosine_threshold`.
const COSINE_THRESHOLD: f32 = 0.85;

struct Pair {
    a: String,
    b: String,
    same: bool,
    kind: String,
}

impl Pair {
    fn lang(&self) -> &'static str {
        if self.a.chars().chain(self.b.chars()).any(text::is_cjk) {
            "zh"
        } else {
            "en"
        }
    }
}

fn load() -> Vec<Pair> {
    let path = std::env::var_os("DEDUP_QUALITY_PAIRS")
        .filter(|p| !p.is_empty())
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fact_pairs.jsonl")
        });
    println!("labelled pairs: {}", path.display());
    let data = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    data.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, line)| {
            let v: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
            let field = |k: &str| {
                v[k].as_str()
                    .unwrap_or_else(|| panic!("line {}: no {k}", i + 1))
                    .to_string()
            };
            Pair {
                a: field("a"),
                b: field("b"),
                same: v["same"].as_bool().expect("same is a bool"),
                kind: field("kind"),
            }
        })
        .collect()
}

#[derive(Default, Clone, Copy)]
struct Score {
    tp: usize,
    fp: usize,
    fn_: usize,
}

impl Score {
    fn of<'a>(pairs: impl IntoIterator<Item = (&'a Pair, bool)>) -> Self {
        let mut s = Score::default();
        for (p, merged) in pairs {
            match (p.same, merged) {
                (true, true) => s.tp += 1,
                (false, true) => s.fp += 1,
                (true, false) => s.fn_ += 1,
                (false, false) => {}
            }
        }
        s
    }
    fn precision(&self) -> f64 {
        if self.tp + self.fp == 0 {
            1.0
        } else {
            self.tp as f64 / (self.tp + self.fp) as f64
        }
    }
    fn recall(&self) -> f64 {
        if self.tp + self.fn_ == 0 {
            1.0
        } else {
            self.tp as f64 / (self.tp + self.fn_) as f64
        }
    }
    fn f1(&self) -> f64 {
        let (p, r) = (self.precision(), self.recall());
        if p + r == 0.0 {
            0.0
        } else {
            2.0 * p * r / (p + r)
        }
    }
    fn line(&self) -> String {
        format!(
            "precision {:.3}  recall {:.3}  F1 {:.3}  (TP {} FP {} FN {})",
            self.precision(),
            self.recall(),
            self.f1(),
            self.tp,
            self.fp,
            self.fn_
        )
    }
}

/// One mode's figures, overall and per language, then its false merges by kind and how many
/// same-fact pairs of each kind it missed. `why` explains a pair's decision, when the mode can.
fn report(name: &str, pairs: &[Pair], merged: &[bool], why: impl Fn(usize) -> String) {
    println!("\n== {name}");
    println!(
        "  all  {}",
        Score::of(pairs.iter().zip(merged.iter().copied())).line()
    );
    for lang in ["en", "zh"] {
        let s = Score::of(
            pairs
                .iter()
                .zip(merged.iter().copied())
                .filter(|(p, _)| p.lang() == lang),
        );
        println!("  {lang}   {}", s.line());
    }
    let mut false_merges: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let mut missed: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, p) in pairs.iter().enumerate() {
        match (p.same, merged[i]) {
            (false, true) => false_merges.entry(&p.kind).or_default().push(i),
            (true, false) => *missed.entry(&p.kind).or_default() += 1,
            _ => {}
        }
    }
    if false_merges.is_empty() {
        println!("  false merges: none");
    } else {
        println!("  false merges by kind:");
        for (kind, ids) in &false_merges {
            println!("    {kind} ({}):", ids.len());
            for &i in ids {
                println!("      {:?} ~ {:?}  [{}]", pairs[i].a, pairs[i].b, why(i));
            }
        }
    }
    let missed: Vec<String> = missed.iter().map(|(k, n)| format!("{k} {n}")).collect();
    println!(
        "  same-fact pairs not merged, by kind: {}",
        if missed.is_empty() {
            "none".to_string()
        } else {
            missed.join(", ")
        }
    );
}

fn verbose() -> bool {
    std::env::var_os("DEDUP_QUALITY_VERBOSE").is_some_and(|v| !v.is_empty() && v != "0")
}

fn main() {
    let pairs = load();
    let zh = pairs.iter().filter(|p| p.lang() == "zh").count();
    let same = pairs.iter().filter(|p| p.same).count();
    println!(
        "{} labelled pairs ({} English, {zh} Chinese; {same} same fact, {} different)",
        pairs.len(),
        pairs.len() - zh,
        pairs.len() - same
    );

    let terms: Vec<bool> = pairs
        .iter()
        .map(|p| {
            dedup::is_near_duplicate(
                &text::term_set(&p.a),
                &text::term_set(&p.b),
                dedup::JACCARD_THRESHOLD,
            )
        })
        .collect();
    report(
        &format!(
            "terms alone (is_near_duplicate, Jaccard {})",
            dedup::JACCARD_THRESHOLD
        ),
        &pairs,
        &terms,
        |i| {
            format!(
                "Jaccard {:.2}",
                text::jaccard(&text::term_set(&pairs[i].a), &text::term_set(&pairs[i].b))
            )
        },
    );

    let plain: Vec<Verdict> = pairs
        .iter()
        .map(|p| identity::judge(&p.a, &p.b, None))
        .collect();
    let merged: Vec<bool> = plain
        .iter()
        .map(|v| matches!(v, Verdict::Same(_)))
        .collect();
    report("judge without embeddings", &pairs, &merged, |i| {
        Wrapper(&plain[i]).to_string()
    });

    // the veto of a model's duplicate claim (no embeddings): how often a different-fact pair is
    // vetoed, and how often a same-fact pair is (a merge the model got right, refused: a
    // duplicate kept, the price of never losing a fact on the model's word)
    let proofs: Vec<Option<identity::Reason>> = pairs
        .iter()
        .map(|p| identity::vetoes_claim(&p.a, &p.b, None))
        .collect();
    let proven = |same: bool| {
        pairs
            .iter()
            .zip(&proofs)
            .filter(|(p, r)| p.same == same && r.is_some())
            .count()
    };
    println!(
        "\n== vetoes_claim (the veto of a model's duplicate claim, no embeddings)\n  different-fact \
         pairs vetoed: {} of {}\n  same-fact pairs vetoed: {} of {}",
        proven(false),
        pairs.len() - same,
        proven(true),
        same
    );
    let proven_alone = pairs
        .iter()
        .filter(|p| !p.same && identity::proves_different(&p.a, &p.b).is_some())
        .count();
    println!(
        "  (a proven difference alone, the veto before: {proven_alone} of {})",
        pairs.len() - same
    );
    println!("  different-fact pairs a wrong claim would merge:");
    for (p, r) in pairs.iter().zip(&proofs) {
        if !p.same && r.is_none() {
            let why = Wrapper(&identity::judge(&p.a, &p.b, None)).to_string();
            println!("      [{}] {:?} ~ {:?}  [{why}]", p.kind, p.a, p.b);
        }
    }
    println!("  same-fact pairs vetoed:");
    for (p, r) in pairs.iter().zip(&proofs) {
        if let (true, Some(r)) = (p.same, r) {
            println!("      [{}] {:?} ~ {:?}  [{r}]", p.kind, p.a, p.b);
        }
    }

    value_changes();

    let Some(cosines) = cosines(&pairs) else {
        return;
    };

    let alone: Vec<bool> = cosines.iter().map(|&c| c >= COSINE_THRESHOLD).collect();
    report(
        &format!("cosine alone (all-MiniLM-L6-v2, threshold {COSINE_THRESHOLD})"),
        &pairs,
        &alone,
        |i| format!("cosine {:.3}", cosines[i]),
    );
    println!("  threshold sweep:");
    for t in [0.70, 0.75, 0.80, 0.85, 0.90, 0.95] {
        let s = Score::of(pairs.iter().zip(cosines.iter().map(|&c| c >= t)));
        println!("    {t:.2}  {}", s.line());
    }

    let with: Vec<Verdict> = pairs
        .iter()
        .zip(&cosines)
        .map(|(p, &c)| identity::judge(&p.a, &p.b, Some(c)))
        .collect();
    let merged: Vec<bool> = with.iter().map(|v| matches!(v, Verdict::Same(_))).collect();
    report(
        "judge with the local model's cosine",
        &pairs,
        &merged,
        |i| Wrapper(&with[i]).to_string(),
    );

    if verbose() {
        println!("\nevery pair: label, cosine, judge without / with cosine");
        for (i, p) in pairs.iter().enumerate() {
            println!(
                "  {:<5} {:<10} {:.3}  {} | {}   {:?} ~ {:?}",
                p.same,
                p.kind,
                cosines[i],
                Wrapper(&plain[i]),
                Wrapper(&with[i]),
                p.a,
                p.b
            );
        }
    }
}

/// What a newer fact replaces (`memories::same_fact::replaced`: a bare denial, or a newer value
/// of a relation that holds one) over `tests/data/value_changes.jsonl`, or the file
/// `VALUE_CHANGES_PAIRS` names (a held-out set of the same shape): a replacement is the
/// positive class, and a wrong one drops a fact that still holds out of every prompt.
fn value_changes() {
    use mneme::memories::same_fact::replaced;
    use mneme::memory::identity::Reading;
    let path = std::env::var_os("VALUE_CHANGES_PAIRS")
        .filter(|p| !p.is_empty())
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/value_changes.jsonl")
        });
    let data = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let content =
        |t: &str| mneme::memory::remember::parse(t).map_or_else(|| t.to_string(), |r| r.content);
    // by language: (replaced rightly, wrongly, missed, pairs)
    let mut by: BTreeMap<&str, (usize, usize, usize, usize)> = BTreeMap::new();
    let mut wrong = Vec::new();
    for line in data.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let (old, new) = (
            content(v["old"].as_str().unwrap()),
            content(v["new"].as_str().unwrap()),
        );
        let want = v["label"] == "replaces";
        let got = !replaced(
            &Reading::new(&new),
            [(1, old.as_str(), &Reading::new(&old))],
        )
        .is_empty();
        let lang = if old.chars().chain(new.chars()).any(text::is_cjk) {
            "zh"
        } else {
            "en"
        };
        for key in [lang, "all"] {
            let e = by.entry(key).or_default();
            e.3 += 1;
            match (want, got) {
                (true, true) => e.0 += 1,
                (false, true) => e.1 += 1,
                (true, false) => e.2 += 1,
                (false, false) => {}
            }
        }
        if got && !want {
            wrong.push(format!("{old:?} → {new:?}"));
        }
    }
    println!("\n== what a newer fact replaces ({})", path.display());
    for (lang, (tp, fp, fn_, n)) in &by {
        let p = *tp as f64 / (tp + fp).max(1) as f64;
        let r = *tp as f64 / (tp + fn_).max(1) as f64;
        let f1 = if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        };
        println!(
            "  {lang:<4} {n:>4} pairs  replaced {tp:>3} rightly, {fp:>2} wrongly, {fn_:>3} missed   precision {p:.3}  recall {r:.3}  F1 {f1:.3}"
        );
    }
    for w in wrong {
        println!("      replaced where both hold: {w}");
    }
}

impl std::fmt::Display for Wrapper<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Verdict::Same(r) => write!(f, "same ({r})"),
            Verdict::Different(r) => write!(f, "different ({r})"),
            Verdict::Unsure(r) => write!(f, "unsure ({r})"),
        }
    }
}

/// Displays a verdict as "same (reason)".
struct Wrapper<'a>(&'a Verdict);

/// The local model's cosine for every pair, or `None` (with a line saying so) when the model
/// files or the feature are missing.
#[cfg(feature = "local-embeddings")]
fn cosines(pairs: &[Pair]) -> Option<Vec<f32>> {
    use std::path::PathBuf;

    use mneme::embed::{Embedder, LocalEmbedder};

    let dir = match std::env::var_os("MNEME_TEST_MODEL_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-models/all-MiniLM-L6-v2"),
    };
    let missing = mneme::config::model_files::missing_files(&dir);
    if !missing.is_empty() {
        println!(
            "\ncosine modes skipped: {} lacks {} (run `bash scripts/test-model`, or set MNEME_TEST_MODEL_DIR)",
            dir.display(),
            missing.join(", ")
        );
        return None;
    }
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let model = LocalEmbedder::load(&dir, "all-MiniLM-L6-v2".into())
            .await
            .expect("model loads");
        let texts: Vec<String> = pairs
            .iter()
            .flat_map(|p| [p.a.clone(), p.b.clone()])
            .collect();
        let vectors = model.embed(&texts).await.expect("embeds");
        Some(
            vectors
                .chunks(2)
                .map(|v| mneme::memory::rank::cosine(&v[0], &v[1]) as f32)
                .collect(),
        )
    })
}

#[cfg(not(feature = "local-embeddings"))]
fn cosines(_pairs: &[Pair]) -> Option<Vec<f32>> {
    println!("\ncosine modes skipped: built without the local-embeddings feature");
    None
}
