//! Numbers that must stay in order (a distribution's `min ≤ typical ≤ p99 ≤ max`, a growth's
//! `typical ≤ largest`), edited one field at a time in any order: the field typed wins and the
//! others of its group move to it when they would be out of order. A new lognormal length
//! starts at p99 100 and max 100; typing typical 200000 first raises both to 200,000 instead of
//! making the model invalid until max is typed first.

use serde_json::Value;

use super::super::distribution::Shape;

/// Returns the keys of a distribution of `shape` that must be in ascending order.
pub fn ordered_keys(shape: Shape) -> &'static [&'static str] {
    match shape {
        Shape::Fixed => &[],
        Shape::Uniform => &["min", "max"],
        Shape::Normal => &["min", "mean", "max"],
        Shape::Zipf => &["min", "typical", "p99", "max"],
        Shape::Lognormal => &["typical", "p99", "max"],
    }
}

/// The keys of a relationship's `growth_per_day` in ascending order.
pub const GROWTH_ORDER: &[&str] = &["typical", "largest"];

/// Sets `key` of the object at JSON pointer `parent` to `value`, and moves every other key of
/// `order` (present in the object) that would be out of order with it to the same number: the
/// keys after `key` up to it, the keys before it down to it. Returns the keys moved, in
/// `order`'s order; nothing moves when `value` is not a number or `key` is not in `order`.
/// Returns `None` (and changes nothing) when `parent` is not an object.
pub fn set_in_order(
    v: &mut Value,
    parent: &str,
    order: &[&str],
    key: &str,
    value: Value,
) -> Option<Vec<String>> {
    let map = v.pointer_mut(parent)?.as_object_mut()?;
    let mut moved = Vec::new();
    if let (Some(x), Some(at)) = (value.as_f64(), order.iter().position(|k| *k == key)) {
        for (i, k) in order.iter().enumerate() {
            let Some(y) = map.get(*k).and_then(Value::as_f64) else {
                continue;
            };
            if (i > at && y < x) || (i < at && y > x) {
                map.insert((*k).to_string(), value.clone());
                moved.push((*k).to_string());
            }
        }
    }
    map.insert(key.to_string(), value);
    Some(moved)
}

/// Returns the validation path (`$.entities[0].fields.title.length`) of a JSON pointer
/// (`/entities/0/fields/title/length`): how a form finds the problems at its own field.
pub fn path_of_pointer(pointer: &str) -> String {
    let mut out = String::from("$");
    for part in pointer.split('/').skip(1) {
        let part = part.replace("~1", "/").replace("~0", "~");
        if !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{part}]"));
        } else {
            out.push('.');
            out.push_str(&part);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_value_typed_first_moves_the_others_of_its_group() {
        // A new lognormal length: typical first, far above p99 and max.
        let mut v = json!({ "l": { "shape": "lognormal", "typical": 50, "p99": 100, "max": 100 } });
        let order = ordered_keys(Shape::Lognormal);
        let moved = set_in_order(&mut v, "/l", order, "typical", json!(200000));
        assert_eq!(moved, Some(vec!["p99".to_string(), "max".to_string()]));
        assert_eq!(
            v["l"],
            json!({ "shape": "lognormal", "typical": 200000, "p99": 200000, "max": 200000 })
        );
        // Then max, then p99, in any order: each stays where typed.
        set_in_order(&mut v, "/l", order, "max", json!(5000000));
        assert_eq!(
            set_in_order(&mut v, "/l", order, "p99", json!(900000)),
            Some(vec![])
        );
        assert_eq!(
            v["l"],
            json!({ "shape": "lognormal", "typical": 200000, "p99": 900000, "max": 5000000 })
        );
        // A max below the others brings them down.
        let moved = set_in_order(&mut v, "/l", order, "max", json!(10));
        assert_eq!(moved, Some(vec!["typical".to_string(), "p99".to_string()]));
        assert_eq!(v["l"]["typical"], json!(10));
    }

    #[test]
    fn every_shape_keeps_its_order_and_validates() {
        for shape in Shape::ALL {
            let order = ordered_keys(shape);
            for (i, key) in order.iter().enumerate() {
                let mut v = json!({ "l": super::super::with_shape(&json!({}), shape) });
                // Far above, then far below, every other key.
                for x in [1e9, 0.5] {
                    set_in_order(&mut v, "/l", order, key, json!(x));
                    let nums: Vec<f64> = order.iter().filter_map(|k| v["l"][k].as_f64()).collect();
                    assert!(
                        nums.windows(2).all(|w| w[0] <= w[1]),
                        "{shape:?} after {key} = {x} (#{i}): {nums:?}"
                    );
                    let model = json!({
                        "entities": [{ "name": "a", "count": 10, "fields": {
                            "s": { "type": "string", "length": v["l"].clone() }
                        } }]
                    });
                    let problems: Vec<String> = crate::model::validate::validate(&model)
                        .into_iter()
                        .filter(|e| e.message.contains("greater than"))
                        .map(|e| e.to_string())
                        .collect();
                    assert!(problems.is_empty(), "{shape:?}: {problems:?}");
                }
            }
        }
    }

    #[test]
    fn an_absent_key_stays_absent_and_a_non_number_moves_nothing() {
        let mut v = json!({ "g": { "typical": 5 } });
        assert_eq!(
            set_in_order(&mut v, "/g", GROWTH_ORDER, "typical", json!(50)),
            Some(vec![])
        );
        assert_eq!(v, json!({ "g": { "typical": 50 } }));
        let mut v = json!({ "g": { "typical": 5, "largest": 10 } });
        assert_eq!(
            set_in_order(&mut v, "/g", GROWTH_ORDER, "typical", json!(50)),
            Some(vec!["largest".to_string()])
        );
        assert_eq!(
            set_in_order(&mut v, "/nothing", GROWTH_ORDER, "typical", json!(1)),
            None
        );
    }

    #[test]
    fn pointers_read_as_validation_paths() {
        assert_eq!(
            path_of_pointer("/entities/0/fields/title/length/typical"),
            "$.entities[0].fields.title.length.typical"
        );
        assert_eq!(
            path_of_pointer("/relationships/12/growth_per_day"),
            "$.relationships[12].growth_per_day"
        );
        assert_eq!(
            path_of_pointer("/entities/0/fields/a~1b"),
            "$.entities[0].fields.a/b"
        );
        assert_eq!(path_of_pointer(""), "$");
    }
}
