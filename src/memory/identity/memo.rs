//! Readings of one text kept while many pairs are judged. The decisions are pure functions
//! of two texts, and each reads both from scratch (lexing, stemming, a denial's surface). A
//! pass that judges one text against hundreds of others, and each of those against the rest
//! (consolidation, the write path's candidates), would read every text again for each pair.
//! Inside [`Memo::within`], the readings below are kept by their text and handed back when
//! the same text comes again; outside it, nothing is kept and every reading is computed, so an
//! idle daemon holds nothing for it.
//!
//! A reading is kept only of its text: the functions memoized here ([`cached`]) take one text
//! and nothing else, and are pure, so a kept reading is the one that would be computed.

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;

/// Most readings one memo holds; past it, it starts again empty. A consolidation pass over
/// 10,000 alike memories keeps all it reads: about 20 MB more at its peak (measured).
const MAX_KEPT: usize = 100_000;

/// Readings kept by text, per kind of reading.
#[derive(Default)]
pub struct Memo {
    kinds: HashMap<&'static str, HashMap<Box<str>, Box<dyn Any + Send>>>,
    kept: usize,
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Memo").field("kept", &self.kept).finish()
    }
}

thread_local! {
    /// The memo of the [`Memo::within`] running on this thread, if one is.
    static ACTIVE: RefCell<Option<Memo>> = const { RefCell::new(None) };
}

impl Memo {
    /// Runs `f` (synchronous: it cannot move to another thread midway) with this memo's
    /// readings at hand, keeping those it computes for the next call.
    pub fn within<R>(&mut self, f: impl FnOnce() -> R) -> R {
        /// Puts the memo back, and the one it stood in for, however `f` ends.
        struct Restore<'a> {
            memo: &'a mut Memo,
            outer: Option<Memo>,
        }
        impl Drop for Restore<'_> {
            fn drop(&mut self) {
                let outer = self.outer.take();
                *self.memo = ACTIVE.with(|a| a.replace(outer)).unwrap_or_default();
            }
        }
        let outer = ACTIVE.with(|a| a.replace(Some(std::mem::take(self))));
        let _restore = Restore { memo: self, outer };
        f()
    }
}

/// `read(text)`, kept under `kind` while a [`Memo::within`] runs on this thread; computed
/// every time otherwise. `kind` names the function (one kind, one type of value).
pub(super) fn cached<V: Clone + Send + 'static>(
    kind: &'static str,
    text: &str,
    read: impl FnOnce(&str) -> V,
) -> V {
    let kept = ACTIVE.with(|a| {
        let a = a.borrow();
        let v = a.as_ref()?.kinds.get(kind)?.get(text)?;
        v.downcast_ref::<V>().cloned()
    });
    if let Some(v) = kept {
        return v;
    }
    // computed without holding the memo: the reading may itself ask for readings
    let v = read(text);
    ACTIVE.with(|a| {
        if let Some(memo) = a.borrow_mut().as_mut() {
            if memo.kept >= MAX_KEPT {
                memo.kinds.clear();
                memo.kept = 0;
            }
            memo.kinds
                .entry(kind)
                .or_default()
                .insert(text.into(), Box::new(v.clone()));
            memo.kept += 1;
        }
    });
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! {
        static CALLS: Cell<usize> = const { Cell::new(0) };
    }

    fn counted(text: &str) -> String {
        CALLS.with(|c| c.set(c.get() + 1));
        text.to_uppercase()
    }

    fn calls() -> usize {
        CALLS.with(Cell::get)
    }

    #[test]
    fn a_reading_is_kept_inside_a_memo_only() {
        let before = calls();
        assert_eq!(cached("upper", "tea", counted), "TEA");
        assert_eq!(cached("upper", "tea", counted), "TEA");
        assert_eq!(calls() - before, 2, "nothing kept outside a memo");

        let mut memo = Memo::default();
        let before = calls();
        memo.within(|| {
            assert_eq!(cached("upper", "tea", counted), "TEA");
            assert_eq!(cached("upper", "tea", counted), "TEA");
            assert_eq!(cached("upper", "coffee", counted), "COFFEE");
        });
        assert_eq!(calls() - before, 2, "read once per text");
        // kept between two calls of the same memo
        memo.within(|| assert_eq!(cached("upper", "tea", counted), "TEA"));
        assert_eq!(calls() - before, 2);
        // and the thread holds nothing once it is over
        let before = calls();
        cached("upper", "tea", counted);
        assert_eq!(calls() - before, 1);
    }

    #[test]
    fn kinds_are_apart_and_a_memo_inside_another_gives_it_back() {
        let mut outer = Memo::default();
        outer.within(|| {
            cached("upper", "tea", counted);
            assert_eq!(cached("len", "tea", str::len), 3);
            let mut inner = Memo::default();
            let before = calls();
            inner.within(|| cached("upper", "tea", counted));
            assert_eq!(calls() - before, 1, "the inner memo starts empty");
            let before = calls();
            cached("upper", "tea", counted);
            assert_eq!(calls() - before, 0, "the outer memo is back");
        });
        assert_eq!(outer.kept, 2);
    }

    #[test]
    fn a_panic_inside_gives_the_memo_back() {
        let mut memo = Memo::default();
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            memo.within(|| {
                cached("upper", "tea", counted);
                panic!("a reading failed");
            })
        }));
        assert!(caught.is_err());
        assert_eq!(memo.kept, 1);
        assert!(ACTIVE.with(|a| a.borrow().is_none()));
    }
}
