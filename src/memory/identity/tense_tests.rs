//! The past said in other forms (2026-11-30, from the labelled set's misses): a past spelled
//! as the present right after who did it ("User quit smoking"), "died" (too short for the
//! "-ed" rule), "used to" said of the past as "lived" is, and "I married my wife" where
//! "married" is the verb, not the adjective of "is married".

use super::trial_tests::one_fact;
use super::{Verdict, judge};

#[test]
fn the_past_said_in_other_forms_is_the_past() {
    one_fact(&[
        ("User quit smoking in 2019", "User stopped smoking in 2019"),
        (
            "I quit smoking five years ago",
            "I stopped smoking 5 years ago",
        ),
        ("User quit smoking", "User gave up smoking"),
        (
            "My father passed away in 2019",
            "User's father died in 2019",
        ),
        (
            "User used to live in Berlin",
            "User formerly lived in Berlin",
        ),
    ]);
}

#[test]
fn the_present_and_what_is_not_yet_done_stay_apart_from_the_past() {
    for (a, b) in [
        // wanting to, doing now, doing each year, having done
        ("User wants to quit smoking", "User quit smoking"),
        ("User is quitting smoking", "User quit smoking"),
        ("User quits smoking every January", "User quit smoking"),
        ("User cut his hair short", "User cuts his hair short"),
        ("User used to live in Berlin", "User lives in Berlin"),
        ("User used to play tennis", "User plays tennis"),
        // being married is no wedding
        ("User is still married", "User married"),
        ("User is married", "User married Tom"),
        ("User's father died in 2019", "User's father died in 2020"),
    ] {
        for (x, y) in [(a, b), (b, a)] {
            assert!(
                !matches!(judge(x, y, None), Verdict::Same(_)),
                "{x} / {y}: {:?}",
                judge(x, y, None)
            );
        }
    }
}
