//! The playground's form edits (`model::edit`) on every preset: renames carry their
//! references, refusals change nothing, design edits read back as the model's design, and one
//! edit is one undo step. (Integration tests: `model` itself knows no presets and no history.)
#![cfg(not(target_arch = "wasm32"))]

mod forms {
    use serde_json::{json, Value};
    use squillion::model::edit::*;
    use squillion::model::validate::validate;
    use squillion::model::{parse_model, Op, Shape};
    use squillion::presets;

    fn preset(name: &str) -> Value {
        serde_json::from_str(presets::find(name).unwrap().text).unwrap()
    }

    fn valid(v: &Value) {
        let errors = validate(v);
        assert!(errors.is_empty(), "{errors:?}");
    }

    #[test]
    fn the_blank_model_is_valid_and_pretty_is_stable() {
        let m = parse_model(BLANK_MODEL).unwrap();
        assert_eq!(m.entities.len(), 1);
        let v: Value = serde_json::from_str(BLANK_MODEL).unwrap();
        assert_eq!(pretty(&v), BLANK_MODEL);
    }

    #[test]
    fn pretty_keeps_every_preset_as_written() {
        for p in presets::all() {
            let v: Value = serde_json::from_str(p.text).unwrap();
            let again: Value = serde_json::from_str(&pretty(&v)).unwrap();
            assert_eq!(again, v, "{}", p.name);
            // Key order survives (preserve_order).
            assert_eq!(
                again.as_object().unwrap().keys().collect::<Vec<_>>(),
                v.as_object().unwrap().keys().collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn renaming_an_entity_renames_its_references() {
        let mut v = preset("social-feed");
        rename_entity(&mut v, "user", "member").unwrap();
        valid(&v);
        let text = v.to_string();
        assert!(!text.contains("\"user\""), "{text}");
        assert_eq!(v["relationships"][0]["parent"], "member");
        assert_eq!(v["relationships"][0]["child"], "member");
        rename_entity(&mut v, "activity", "post").unwrap();
        valid(&v);
        assert_eq!(v["relationships"][0]["feed"], "post");
        // Shard keys follow the collection.
        assert!(v["sharding"]["keys"].get("post").is_some());
        assert!(v["sharding"]["keys"].get("post_buckets").is_some());
    }

    #[test]
    fn every_entity_and_relationship_of_every_preset_can_be_renamed() {
        for p in presets::all() {
            let v = preset(p.name);
            for e in entity_names(&v) {
                let mut w = v.clone();
                rename_entity(&mut w, &e, "renamed_thing")
                    .unwrap_or_else(|err| panic!("{}: {e}: {err}", p.name));
                valid(&w);
                assert!(entity_names(&w).contains(&"renamed_thing".to_string()));
            }
            for r in relationship_names(&v) {
                let mut w = v.clone();
                rename_relationship(&mut w, &r, "renamed_rel")
                    .unwrap_or_else(|err| panic!("{}: {r}: {err}", p.name));
                valid(&w);
            }
        }
    }

    #[test]
    fn every_field_of_every_preset_is_renamed_with_its_references_or_refused() {
        let mut renamed = 0;
        for p in presets::all() {
            let v = preset(p.name);
            for e in entity_names(&v) {
                for f in field_names(&v, &e) {
                    let mut w = v.clone();
                    match rename_field(&mut w, &e, &f, "zz_renamed") {
                        Ok(()) => {
                            valid(&w);
                            renamed += 1;
                        }
                        // A refusal leaves the model as it was, and says why.
                        Err(EditError::WouldBreak { errors, .. }) => {
                            assert_eq!(w, v);
                            assert!(!errors.is_empty());
                        }
                        Err(other) => panic!("{}: {e}.{f}: {other}", p.name),
                    }
                }
            }
        }
        assert!(renamed > 20, "only {renamed} fields could be renamed");
    }

    #[test]
    fn field_rename_follows_steps_and_keeps_the_place() {
        let mut v = preset("social-feed");
        rename_field(&mut v, "user", "username", "handle").unwrap();
        valid(&v);
        assert_eq!(field_names(&v, "user"), ["handle", "activityCount"]);
    }

    #[test]
    fn renames_refuse_taken_and_empty_names() {
        let mut v = preset("social-feed");
        let before = v.clone();
        assert_eq!(
            rename_entity(&mut v, "user", "activity"),
            Err(EditError::NameTaken {
                what: squillion::model::edit::Thing::Entity,
                name: "activity".into()
            })
        );
        assert_eq!(
            rename_entity(&mut v, "user", " "),
            Err(EditError::EmptyName)
        );
        assert!(matches!(
            rename_field(&mut v, "user", "username", "activityCount"),
            Err(EditError::NameTaken { .. })
        ));
        assert_eq!(v, before);
    }

    #[test]
    fn deleting_something_still_named_is_refused_with_the_paths() {
        let mut v = preset("social-feed");
        let before = v.clone();
        let err = remove_entity(&mut v, "user").unwrap_err();
        assert!(err
            .to_string()
            .starts_with("Deleting entity “user” would break"));
        assert!(
            err.to_string().contains("$.relationships[0].parent"),
            "{err}"
        );
        let err = remove_relationship(&mut v, "feed").unwrap_err();
        assert!(err.to_string().contains("$.workload[0].steps[0]"), "{err}");
        assert_eq!(v, before);
        // Unreferenced things go.
        let mut b: Value = serde_json::from_str(BLANK_MODEL).unwrap();
        let e = add_entity(&mut b);
        assert_eq!(e, "entity");
        remove_field(&mut b, "item", "created").unwrap();
        remove_entity(&mut b, "entity").unwrap();
        valid(&b);
        assert_eq!(entity_names(&b), ["item"]);
        assert_eq!(field_names(&b, "item"), ["title"]);
    }

    #[test]
    fn adding_things_keeps_the_model_valid() {
        let mut v: Value = serde_json::from_str(BLANK_MODEL).unwrap();
        add_entity(&mut v);
        add_entity(&mut v);
        assert_eq!(entity_names(&v), ["item", "entity", "entity2"]);
        add_field(&mut v, "item").unwrap();
        assert_eq!(add_relationship(&mut v).as_deref(), Some("entitys"));
        add_unit(&mut v);
        valid(&v);
        assert!(move_item(&mut v, "/entities", 2, true));
        assert_eq!(entity_names(&v), ["item", "entity2", "entity"]);
        assert!(!move_item(&mut v, "/entities", 0, true));
        assert!(!move_item(&mut v, "/entities", 2, false));
        valid(&v);
    }

    #[test]
    fn fields_steps_and_operations_move_one_place_and_keep_the_rest() {
        let mut v = preset("social-feed");
        let text = |v: &Value| serde_json::to_string(v).unwrap();
        assert_eq!(field_names(&v, "activity")[..2], ["date", "type"]);
        assert!(move_field(&mut v, "activity", "type", true));
        assert_eq!(field_names(&v, "activity")[..2], ["type", "date"]);
        assert!(
            !move_field(&mut v, "activity", "type", true),
            "already first"
        );
        let last = field_names(&v, "activity").last().cloned().unwrap();
        assert!(
            !move_field(&mut v, "activity", &last, false),
            "already last"
        );
        assert!(!move_field(&mut v, "activity", "nope", true));
        assert!(!move_field(&mut v, "nobody", "type", true));
        // The field kept its definition; moving back restores the text.
        assert!(move_field(&mut v, "activity", "type", false));
        assert_eq!(text(&v), text(&preset("social-feed")));
        // Operations and steps are arrays at a pointer.
        let units = |v: &Value| -> Vec<String> {
            v["workload"]
                .as_array()
                .unwrap()
                .iter()
                .map(|u| u["name"].as_str().unwrap().to_string())
                .collect()
        };
        let before = units(&v);
        assert!(move_item(&mut v, "/workload", 1, true));
        assert_eq!(units(&v)[0], before[1]);
        assert!(!move_item(&mut v, "/workload/0/steps", 0, true));
        assert!(!move_item(&mut v, "/no/such/list", 0, false));
        valid(&v);
    }

    #[test]
    fn every_op_gets_a_step_and_the_usual_ones_are_valid() {
        let v = preset("blog");
        let old = json!({ "op": "read", "entity": "post" });
        for op in Op::ALL {
            let s = step_with_op(&v, &old, op);
            assert_eq!(s["op"], op.name());
            assert_eq!(op.takes_entity(), s.get("entity").is_some(), "{op:?}");
        }
        for op in [
            Op::Read,
            Op::Insert,
            Op::Delete,
            Op::Update,
            Op::List,
            Op::InsertChild,
        ] {
            let mut w = v.clone();
            w["workload"][0]["steps"][0] = step_with_op(&v, &old, op);
            valid(&w);
        }
    }

    #[test]
    fn shapes_convert_to_valid_distributions() {
        let samples = [
            json!({ "shape": "zipf", "min": 0, "typical": 50, "p99": 5000, "max": 40000000 }),
            json!({ "shape": "uniform", "min": 3, "max": 15 }),
            json!({ "shape": "fixed", "value": 0 }),
            json!({ "shape": "normal", "mean": 120, "sd": 40, "min": 1, "max": 280 }),
            json!({ "shape": "lognormal", "typical": 60, "p99": 400, "max": 1000 }),
        ];
        for d in &samples {
            for shape in Shape::ALL {
                let out = with_shape(d, shape);
                assert_eq!(out["shape"], shape.name());
                let mut m: Value = serde_json::from_str(BLANK_MODEL).unwrap();
                m["entities"][0]["fields"]["title"]["length"] = out.clone();
                valid(&m);
                let profile = shape_profile(&out, 24).unwrap();
                assert_eq!(profile.len(), 24);
                assert!(profile.windows(2).all(|w| w[0] <= w[1]), "{out}");
            }
        }
        // The heavy tail shows: most parents are tiny next to the largest.
        let zipf = shape_profile(&samples[0], 10).unwrap();
        assert!(zipf[5] < 0.01 && zipf[9] == 1.0);
        assert!(shape_profile(&json!({ "shape": "nope" }), 10).is_none());
    }

    #[test]
    fn set_key_edits_in_place_and_pointer_escapes() {
        let mut v = json!({ "a": { "x": 1, "y": 2 } });
        assert!(set_key(&mut v, "/a", "x", number_value(" 2.5 ")));
        assert!(set_key(&mut v, "/a", "z", number_value("1e3")));
        assert_eq!(v.to_string(), r#"{"a":{"x":2.5,"y":2,"z":1000}}"#);
        assert!(set_key(&mut v, "/a", "x", None));
        assert_eq!(v.to_string(), r#"{"a":{"y":2,"z":1000}}"#);
        assert!(!set_key(&mut v, "/b", "x", None));
        assert_eq!(number_value("abc"), None);
        assert_eq!(number_value("inf"), None);
        assert_eq!(pointer(&["entities", "0", "a/b~c"]), "/entities/0/a~1b~0c");
        let w = json!({ "a/b~c": 1 });
        assert_eq!(w.pointer(&pointer(&["a/b~c"])), Some(&json!(1)));
        for shape in Shape::ALL {
            let d = with_shape(&json!({}), shape);
            let mut keys: Vec<&str> = d
                .as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .filter(|k| *k != "shape")
                .collect();
            keys.sort();
            let mut expected = shape.keys().to_vec();
            expected.sort();
            assert_eq!(keys, expected, "{shape:?}");
        }
    }

    #[test]
    fn a_type_change_keeps_presence_and_adds_what_the_type_needs() {
        let mut f = json!({ "type": "string", "kind": "text", "length": { "shape": "fixed", "value": 3 }, "presence": 0.5 });
        set_field_type(&mut f, "array");
        assert_eq!(f["items"], "string");
        assert_eq!(f["presence"], 0.5);
        assert!(f.get("kind").is_none());
        let mut m: Value = serde_json::from_str(BLANK_MODEL).unwrap();
        m["entities"][0]["fields"]["title"] = f.clone();
        valid(&m);
        for ty in squillion::model::BsonType::ALL {
            let mut g = f.clone();
            set_field_type(&mut g, ty.alias());
            m["entities"][0]["fields"]["title"] = g;
            valid(&m);
        }
    }
}

mod design {
    use serde_json::Value;
    use squillion::history::{Change, History};
    use squillion::model::design::{resolve, strategies_for, DesignName, Joins, Strategy};
    use squillion::model::edit::*;
    use squillion::model::parse_model;
    use squillion::presets;

    fn preset(name: &str) -> Value {
        serde_json::from_str(presets::find(name).unwrap().text).unwrap()
    }

    #[test]
    fn a_strategy_is_written_as_an_override_and_read_back() {
        let mut v = preset("blog");
        let keys: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        set_strategy(&mut v, "comments", &Strategy::Bucket { size: 20 }).unwrap();
        assert_eq!(
            v["design"]["relationships"]["comments"],
            serde_json::json!({"strategy": "bucket", "size": 20})
        );
        // The other override and the key order are kept.
        assert_eq!(
            v["design"]["relationships"]["posts"]["strategy"],
            "reference_in_child"
        );
        assert_eq!(
            v.as_object().unwrap().keys().cloned().collect::<Vec<_>>(),
            keys
        );
        let m = parse_model(&pretty(&v)).unwrap();
        assert_eq!(
            m.design.relationships.get("comments"),
            Some(&Strategy::Bucket { size: 20 })
        );
    }

    #[test]
    fn a_model_without_a_design_gets_one() {
        let mut v = preset("image-board");
        assert!(v.get("design").is_none());
        set_strategy(&mut v, "images", &Strategy::ReferenceInParent).unwrap();
        let m = parse_model(&v.to_string()).unwrap();
        assert_eq!(
            m.design.relationships.get("images"),
            Some(&Strategy::ReferenceInParent)
        );
    }

    #[test]
    fn an_invalid_combination_is_refused_with_the_validation_error_and_changes_nothing() {
        let mut v = preset("social-feed");
        let before = v.clone();
        let e = set_strategy(&mut v, "feed", &Strategy::Embed).unwrap_err();
        assert!(e.to_string().starts_with("Using embed for “feed” was refused: $.design.relationships.feed.strategy: relationship \"feed\" is a feed"), "{e}");
        assert_eq!(v, before);
        let e = set_strategy(&mut v, "feed", &Strategy::BucketedFanOut { size: 0 }).unwrap_err();
        // One parenthesis, the message's own.
        assert!(
            e.to_string().ends_with(
                "refused: $.design.relationships.feed.size: must be at least 1 (found 0)"
            ),
            "{e}"
        );
        assert_eq!(v, before);
        let e = set_strategy(&mut v, "nope", &Strategy::FanOutOnRead).unwrap_err();
        assert!(matches!(e, EditError::NotFound { .. }), "{e}");
        assert_eq!(v, before);
    }

    #[test]
    fn every_offered_strategy_of_every_preset_is_accepted() {
        for p in presets::all() {
            let v = preset(p.name);
            for r in relationship_names(&v) {
                let m = parse_model(p.text).unwrap();
                for s in strategies_for(&m, &r) {
                    let mut w = v.clone();
                    set_strategy(&mut w, &r, &s)
                        .unwrap_or_else(|e| panic!("{} {r} {}: {e}", p.name, s.name()));
                }
            }
        }
    }

    #[test]
    fn a_design_replaces_the_models_own() {
        let mut v = preset("social-graph");
        let m = parse_model(&v.to_string()).unwrap();
        let tbc = squillion::eval::offer::offer(&m, "following")
            .unwrap()
            .model;
        set_design(&mut v, &tbc.design).unwrap();
        let again = parse_model(&v.to_string()).unwrap();
        assert_eq!(again.design, tbc.design);
        assert_eq!(again.preset, m.preset);
    }

    /// Applies `edit` as the page does (one recorded step) and returns the history.
    fn one_step(v: &mut Value, edit: impl FnOnce(&mut Value) -> Result<(), EditError>) -> History {
        let mut h = History::new(pretty(v));
        edit(v).unwrap();
        assert!(h.record(pretty(v), Change::Form, 0.0));
        h
    }

    fn resolved(v: &Value, relationship: &str) -> Strategy {
        let m = parse_model(&v.to_string()).unwrap();
        resolve(&m, &m.design)
            .into_iter()
            .find(|(n, _)| n == relationship)
            .unwrap()
            .1
    }

    #[test]
    fn the_base_changes_what_relationships_without_an_override_take() {
        let mut v = preset("blog");
        clear_strategy(&mut v, "comments").unwrap();
        let before = pretty(&v);
        // No base written: normalized.
        assert!(v["design"].get("base").is_none());
        assert_eq!(resolved(&v, "comments").name(), "reference_in_child");
        let mut h = one_step(&mut v, |v| set_base(v, "bucketed"));
        // Written first; the override stays; the others follow the new base.
        assert_eq!(
            v["design"].as_object().unwrap().keys().collect::<Vec<_>>(),
            ["base", "relationships"]
        );
        assert_eq!(v["design"]["base"], "bucketed");
        assert_eq!(
            v["design"]["relationships"]["posts"]["strategy"],
            "reference_in_child"
        );
        assert_eq!(resolved(&v, "comments").name(), "bucket");
        assert_eq!(h.undo(), Some(before.as_str()));
        assert_eq!(h.undo(), None, "one step");
        // In place when there is one.
        set_base(&mut v, "denormalized").unwrap();
        assert_eq!(v["design"]["base"], "denormalized");
        // A design without a base gets one, first.
        let mut w = preset("image-board");
        set_joins(&mut w, "lookup").unwrap();
        set_base(&mut w, "normalized").unwrap();
        assert_eq!(
            w["design"].as_object().unwrap().keys().collect::<Vec<_>>(),
            ["base", "joins"]
        );
        assert_eq!(
            parse_model(&w.to_string()).unwrap().design.base,
            DesignName::Normalized
        );
    }

    #[test]
    fn an_unknown_base_or_joins_is_refused_with_the_validation_error() {
        let mut v = preset("blog");
        let before = v.clone();
        let e = set_base(&mut v, "flat").unwrap_err();
        assert!(matches!(e, EditError::Invalid { .. }), "{e}");
        assert!(
            e.to_string().starts_with(
                "Basing the design on “flat” was refused: $.design.base: unknown design \"flat\""
            ),
            "{e}"
        );
        assert_eq!(v, before);
        let e = set_joins(&mut v, "merge").unwrap_err();
        assert!(
            e.to_string().contains("$.design.joins: unknown joins"),
            "{e}"
        );
        assert_eq!(v, before);
    }

    #[test]
    fn joins_are_written_and_the_default_removes_the_key() {
        let mut v = preset("blog");
        let before = pretty(&v);
        let mut h = one_step(&mut v, |v| set_joins(v, "lookup"));
        assert_eq!(v["design"]["joins"], "lookup");
        assert_eq!(
            parse_model(&v.to_string()).unwrap().design.joins,
            Joins::Lookup
        );
        assert_eq!(h.undo(), Some(before.as_str()));
        set_joins(&mut v, "application").unwrap();
        assert!(v["design"].get("joins").is_none());
        assert_eq!(pretty(&v), before);
    }

    #[test]
    fn reset_removes_the_override_and_the_row_follows_the_base() {
        let mut v = preset("blog");
        set_strategy(&mut v, "comments", &Strategy::Bucket { size: 20 }).unwrap();
        let before = pretty(&v);
        let mut h = one_step(&mut v, |v| clear_strategy(v, "comments"));
        assert!(v["design"]["relationships"].get("comments").is_none());
        assert_eq!(resolved(&v, "comments").name(), "reference_in_child");
        assert_eq!(h.undo(), Some(before.as_str()));
        // The last override takes `relationships` with it.
        clear_strategy(&mut v, "posts").unwrap();
        assert_eq!(v["design"], serde_json::json!({}));
        // Nothing to reset: refused, nothing changed.
        let still = v.clone();
        let e = clear_strategy(&mut v, "posts").unwrap_err();
        assert!(matches!(e, EditError::NotFound { .. }), "{e}");
        assert!(clear_strategy(&mut v, "nope").is_err());
        assert_eq!(v, still);
    }

    #[test]
    fn copied_fields_toggle_in_the_entitys_field_order() {
        let mut v = preset("blog");
        let er = Strategy::ExtendedReference { copy: vec![] };
        // Child fields of comments (post → comment), in the model's order.
        let fields = field_names(&v, "comment");
        assert!(fields.len() >= 3, "{fields:?}");
        let (first, last) = (fields[0].clone(), fields[fields.len() - 1].clone());
        set_copied(&mut v, "comments", &er, &last, true).unwrap();
        let now = resolved(&v, "comments");
        let before = pretty(&v);
        let mut h = one_step(&mut v, |v| set_copied(v, "comments", &now, &first, true));
        assert_eq!(
            v["design"]["relationships"]["comments"],
            serde_json::json!({"strategy": "extended_reference", "copy": [first, last]})
        );
        assert_eq!(h.undo(), Some(before.as_str()));
        v = serde_json::from_str(&before).unwrap();
        let now = resolved(&v, "comments");
        set_copied(&mut v, "comments", &now, &last, false).unwrap();
        assert_eq!(
            resolved(&v, "comments"),
            Strategy::ExtendedReference { copy: vec![] }
        );
        // A reference in child copies parent fields (post → comment: the post's).
        let ric = Strategy::ReferenceInChild { copy: vec![] };
        let title = field_names(&v, "post")[0].clone();
        set_copied(&mut v, "comments", &ric, &title, true).unwrap();
        assert_eq!(
            resolved(&v, "comments"),
            Strategy::ReferenceInChild { copy: vec![title] }
        );
        // Refused: a strategy without copies, a field the entity lacks; nothing changed.
        let still = v.clone();
        assert!(set_copied(&mut v, "comments", &Strategy::Embed, &first, true).is_err());
        assert!(set_copied(&mut v, "comments", &er, "no_such_field", true).is_err());
        assert!(set_copied(&mut v, "nope", &er, &first, true).is_err());
        assert_eq!(v, still);
    }

    #[test]
    fn a_base_design_strategy_gets_its_copies_as_an_override() {
        // Denormalized gives an unbounded relationship an extended reference copying the
        // fields the workload reads: toggling one keeps the others.
        for p in presets::all() {
            let v = preset(p.name);
            for r in relationship_names(&v) {
                let s = resolved(&v, &r);
                let Some(copy) = s.copy().filter(|c| !c.is_empty()).map(<[String]>::to_vec) else {
                    continue;
                };
                let mut w = v.clone();
                set_copied(&mut w, &r, &s, &copy[0], false)
                    .unwrap_or_else(|e| panic!("{} {r}: {e}", p.name));
                assert_eq!(
                    resolved(&w, &r),
                    s.with_copy(copy[1..].to_vec()),
                    "{} {r}",
                    p.name
                );
                return;
            }
        }
        panic!("no preset copies a field under its design");
    }
}
