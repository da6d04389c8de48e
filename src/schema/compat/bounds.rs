//! Bounds compared: `minimum`/`maximum` and their exclusive forms, `multipleOf`, `minLength`/
//! `maxLength`, `minItems`/`maxItems`, `uniqueItems`. Each bound that moved is a change; the
//! values tried are those at and around the old and the new bound.

use super::walk::{Direction, Places, Walk};
use serde_json::{json, Map, Value};

/// What a bound limits, and so how to make a value of a given size.
#[derive(Clone, Copy)]
enum Measure {
    Number,
    Length,
    Items,
}

const BOUNDS: &[(&str, bool, Measure)] = &[
    ("minimum", true, Measure::Number),
    ("exclusiveMinimum", true, Measure::Number),
    ("maximum", false, Measure::Number),
    ("exclusiveMaximum", false, Measure::Number),
    ("minLength", true, Measure::Length),
    ("maxLength", false, Measure::Length),
    ("minItems", true, Measure::Items),
    ("maxItems", false, Measure::Items),
];

fn number(v: f64) -> Value {
    if v.fract() == 0.0 && v.abs() < 9.0e15 {
        #[allow(clippy::cast_possible_truncation, reason = "bounded above")]
        return json!(v as i64);
    }
    json!(v)
}

/// The values around `bounds` that a bound of `measure` can tell apart; `item` fills arrays.
fn around(bounds: &[f64], measure: Measure, item: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    for b in bounds {
        for d in [0.0, -1.0, 1.0, -0.5, 0.5] {
            let v = b + d;
            match measure {
                Measure::Number => out.push(number(v)),
                Measure::Length | Measure::Items
                    if v >= 0.0 && v.fract() == 0.0 && v <= 10_000.0 =>
                {
                    #[allow(
                        clippy::cast_possible_truncation,
                        clippy::cast_sign_loss,
                        reason = "checked above"
                    )]
                    let n = v as usize;
                    out.push(match measure {
                        Measure::Length => json!("a".repeat(n)),
                        _ => Value::Array(vec![item.clone(); n]),
                    });
                }
                _ => {}
            }
        }
    }
    out
}

/// Compares every bound of `o` (OLD) and `n` (NEW).
pub(super) fn compare(
    walk: &mut Walk,
    o: &Map<String, Value>,
    n: &Map<String, Value>,
    at: &Places,
) {
    let item = {
        let items = |m: &Map<String, Value>| m.get("items").filter(|i| !i.is_array()).cloned();
        let [a, _] = walk.samples(
            &items(o)
                .and_then(|v| v.as_object().cloned())
                .unwrap_or_default(),
            &Map::new(),
        );
        a
    };
    for &(keyword, lower, measure) in BOUNDS {
        let (old, new) = (o.get(keyword), n.get(keyword));
        if old == new {
            continue;
        }
        let (ov, nv) = (old.and_then(Value::as_f64), new.and_then(Value::as_f64));
        if old.is_some() && ov.is_none() || new.is_some() && nv.is_none() {
            // draft-04's boolean `exclusiveMinimum` and the like.
            walk.unknown(keyword, at);
            continue;
        }
        let tighter = match (ov, nv) {
            (None, Some(_)) => true,
            (Some(_), None) => false,
            (Some(a), Some(b)) => (b > a) == lower,
            (None, None) => continue,
        };
        let show = |v: Option<f64>| v.map_or_else(|| "none".to_owned(), |v| number(v).to_string());
        let message = match (ov, nv) {
            (None, _) => format!("`{keyword}` {} added", show(nv)),
            (_, None) => format!("`{keyword}` {} removed", show(ov)),
            _ => format!("`{keyword}` changed from {} to {}", show(ov), show(nv)),
        };
        let bounds: Vec<f64> = [nv, ov].into_iter().flatten().collect();
        let candidates = around(&bounds, measure, &item);
        let (kind, direction) = if tighter {
            ("bound-tightened", Direction::Narrower)
        } else {
            ("bound-loosened", Direction::Wider)
        };
        walk.record(kind, message, direction, keyword, at, candidates);
    }
    let (old, new) = (o.get("multipleOf"), n.get("multipleOf"));
    if old != new {
        let (ov, nv) = (old.and_then(Value::as_f64), new.and_then(Value::as_f64));
        let direction = match (ov, nv) {
            (None, Some(_)) => Direction::Narrower,
            (Some(_), None) => Direction::Wider,
            (Some(a), Some(b)) if b > a && (b / a).fract() == 0.0 => Direction::Narrower,
            (Some(a), Some(b)) if a > b && (a / b).fract() == 0.0 => Direction::Wider,
            _ => Direction::Unknown,
        };
        let mut candidates: Vec<Value> = [ov, nv].into_iter().flatten().map(number).collect();
        candidates.extend([json!(1), json!(0.5), json!(3), json!(0.1)]);
        let message = format!(
            "`multipleOf` changed from {} to {}",
            old.map_or("none".to_owned(), Value::to_string),
            new.map_or("none".to_owned(), Value::to_string)
        );
        walk.record(
            "multiple-of-changed",
            message,
            direction,
            "multipleOf",
            at,
            candidates,
        );
    }
    let unique = |m: &Map<String, Value>| {
        m.get("uniqueItems")
            .and_then(Value::as_bool)
            .unwrap_or(false)
    };
    if unique(o) != unique(n) {
        let (kind, direction, message) = if unique(n) {
            (
                "unique-items-added",
                Direction::Narrower,
                "`uniqueItems` now required",
            )
        } else {
            (
                "unique-items-removed",
                Direction::Wider,
                "`uniqueItems` no longer required",
            )
        };
        let candidates = vec![Value::Array(vec![item.clone(), item])];
        walk.record(
            kind,
            message.to_owned(),
            direction,
            "uniqueItems",
            at,
            candidates,
        );
    }
}
