//! The advice as text: what `squillion advise` prints without `--json`, and the explanation of
//! each choice, in any [`Lang`] (the words are `locales/*/messages.ftl`'s `## Advisor`).

use std::fmt::Write as _;

use super::cost::{Cost, Flip};
use super::flips::ChoiceFlip;
use super::screen::Breach;
use super::{words, Advice, Advised, Alternative, Explanation};
use crate::human::{binary_size, thousands};
use crate::lang::{Lang, Text};

/// Returns the sign a difference is written with: `+`, `-`, or `±` for none.
fn sign(v: f64) -> &'static str {
    if v > 0.0 {
        "+"
    } else if v < 0.0 {
        "-"
    } else {
        "±"
    }
}

/// Returns a signed per-second figure (`+2,000`, `-0.5`), rounded for people.
fn signed(v: f64) -> String {
    format!("{}{}", sign(v), plain(v.abs()))
}

/// Returns a figure for people: whole numbers with thousands separators, small ones with up
/// to two decimals.
fn plain(v: f64) -> String {
    if v >= 100.0 || v.fract() == 0.0 {
        thousands(v.round() as u64)
    } else {
        let t = format!("{v:.2}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Returns `v` cut down to what [`plain`] shows (whole from 100, two decimals below), so that
/// an upper bound shown ("below 448") is never above the bound itself (448.7).
fn floor_shown(v: f64) -> f64 {
    if v >= 100.0 {
        v.floor()
    } else {
        (v * 100.0).floor() / 100.0
    }
}

/// Returns a signed byte difference (`+1.2 GiB`).
fn signed_bytes(v: f64) -> String {
    format!("{}{}", sign(v), binary_size(v.abs().round() as u64))
}

/// Returns what an alternative costs against the recommendation, as a text.
fn costs(a: &Alternative) -> Text {
    Text::new("advisor-costs")
        .arg("reads", signed(a.reads_delta))
        .arg("writes", signed(a.writes_delta))
        .arg("keys", signed(a.index_keys_delta))
        .arg("data", signed_bytes(a.storage_delta))
        .arg("indexes", signed_bytes(a.index_bytes_delta))
        .arg("score", format!("{:+.3}", a.score_delta))
}

/// Returns why a design is infeasible, in `lang`: the screen's own sentence in English; in
/// another language the same finding from the breach's code and values.
pub fn breach_in(b: &Breach, lang: Lang) -> String {
    if lang == Lang::En {
        return b.message.clone();
    }
    breach_text(b).render(lang)
}

/// Returns why a design is infeasible as a text any language renders, from the breach's code
/// and values.
pub fn breach_text(b: &Breach) -> Text {
    let n = |v: Option<u64>| v.map(thousands).unwrap_or_default();
    let text = match b.code.as_str() {
        "ARRAY_BREAK_POINT" => Text::new("advisor-breach-past"),
        "BREAKS_WITHIN_HORIZON" => Text::new("advisor-breach-horizon")
            .arg("date", b.date.clone().unwrap_or_default())
            .arg("days", n(b.days)),
        "LARGEST_OVER_LIMIT" => Text::new("advisor-breach-largest"),
        "DEPTH_OVER_LIMIT" => Text::new("advisor-breach-depth"),
        "INDEX_LIMIT" => Text::new("advisor-breach-indexes"),
        "OPEN_KEYS_INDEXED" => Text::new("advisor-breach-open-keys"),
        _ => Text::new("advisor-breach-other").arg("code", &b.code),
    };
    text.arg("collection", &b.collection)
        .arg("path", &b.path)
        .arg("count", n(b.break_point))
        .arg("largest", n(b.largest))
}

/// Returns the sentences `lang` writes one after another: with a space in English, without
/// in Chinese (each ends in "。").
fn sentences(lang: Lang, parts: &[String]) -> String {
    match lang {
        Lang::En => parts.join(" "),
        Lang::ZhCn => parts.concat(),
    }
}

/// Returns an alternative's choice in words (its strategy id where the advice has no words:
/// an advice read from JSON written before them).
fn choice_words(a: &Alternative) -> Text {
    a.words
        .clone()
        .unwrap_or_else(|| Text::new("advisor-words-design").arg("choices", &a.choice))
}

/// Returns the sentence explaining one choice in `lang`: the choice in words, the infeasible
/// alternatives that would have scored better with the numbers of their break, then the
/// runner-up and what it costs more.
pub fn explanation_in(
    lang: Lang,
    chosen: &Text,
    runner_up: Option<&Alternative>,
    rejected: &[Alternative],
    flip: Option<&ChoiceFlip>,
) -> String {
    let mut parts = vec![crate::human::capitalize(
        &Text::new("advisor-why-chosen")
            .nested("chosen", chosen.clone())
            .render(lang),
    )];
    for r in rejected {
        let why = r
            .infeasible
            .first()
            .map_or_else(String::new, |b| breach_in(b, lang));
        parts.push(
            Text::new("advisor-why-infeasible")
                .arg("choice", words::sentence(&choice_words(r), lang))
                .arg("why", why)
                .render(lang),
        );
        if let Some(g) = &r.growth {
            parts.push(
                Text::new("advisor-why-growth")
                    .arg("below", plain(floor_shown(g.feasible_below_per_day)))
                    .arg("today", plain(g.per_day))
                    .render(lang),
            );
        }
    }
    parts.push(match runner_up {
        Some(a) => Text::new("advisor-why-runner-up")
            .arg("choice", words::sentence(&choice_words(a), lang))
            .nested("costs", costs(a))
            .render(lang),
        None => Text::new("advisor-why-no-alternative").render(lang),
    });
    if let Some(f) = flip {
        parts.push(choice_flip_in(f, lang));
    }
    sentences(lang, &parts)
}

/// Returns where one choice flips against its runner-up, both run on the engine, in a
/// sentence: what the runner-up costs more, and the read/write ratio or the storage weight at
/// which it would win; or why the engine rules it out.
fn choice_flip_in(f: &ChoiceFlip, lang: Lang) -> String {
    if !f.sound() {
        let id = match f.verdict.as_str() {
            "engine_infeasible" => "advisor-choice-flip-infeasible",
            "refused" => "advisor-choice-flip-refused",
            "no_answer" => "advisor-choice-flip-no-answer",
            _ => "advisor-choice-flip-failed",
        };
        return Text::new(id).render(lang);
    }
    let signed_work = |v: f64| {
        let sign = if v < 0.0 { "-" } else { "+" };
        format!("{sign}{}", work(v.abs()))
    };
    let decides = match (f.decided_by.as_deref(), &f.term) {
        (Some("storage"), _) => Text::new("advisor-choice-flip-decides-storage").render(lang),
        (Some("reads" | "writes"), Some(term)) => Text::new("advisor-choice-flip-decides-term")
            .arg("term", term_name(term, lang))
            .render(lang),
        _ => String::new(),
    };
    let costs = Text::new("advisor-choice-flip-costs")
        .arg("work", signed_work(f.work_delta_us.unwrap_or(0.0)))
        .arg(
            "storage",
            signed_bytes(f.storage_delta_bytes.unwrap_or(0.0)),
        )
        .arg("decides", decides);
    let Some(flip) = &f.flip else {
        return Text::new("advisor-choice-flip-same").render(lang);
    };
    let when = flip_conditions(
        flip,
        &FlipWords {
            fewer_reads: "advisor-choice-flip-below",
            more_reads: "advisor-choice-flip-above",
            factor: "advisor-flip-factor",
            storage: "advisor-choice-flip-storage",
        },
        lang,
    );
    let id = if flip.score_delta < 0.0 {
        "advisor-choice-flip-cheaper"
    } else if when.is_empty() {
        "advisor-choice-flip-never"
    } else {
        "advisor-choice-flip"
    };
    Text::new(id)
        .nested("costs", costs)
        .arg(
            "when",
            when.join(&Text::new("advisor-choice-flip-or").render(lang)),
        )
        .render(lang)
}

/// Returns an explanation of the advice in `lang` (its `text` is the English).
pub fn explanation_text(e: &Explanation, lang: Lang) -> String {
    if lang == Lang::En {
        return e.text.clone();
    }
    explanation_text_in(e, lang)
}

/// Returns an explanation rendered in `lang` from its parts (what its `text` is made of).
pub fn explanation_text_in(e: &Explanation, lang: Lang) -> String {
    let chosen = e
        .chosen_words
        .clone()
        .unwrap_or_else(|| Text::new("advisor-words-design").arg("choices", &e.chosen));
    explanation_in(
        lang,
        &chosen,
        e.runner_up.as_ref(),
        &e.rejected,
        e.flip.as_ref(),
    )
}

/// Returns a design of the advice in words in `lang`, found by its label (flips and
/// disagreements name designs by label); the label itself when the advice lists no such
/// design.
pub fn design_in(a: &Advice, label: &str, lang: Lang) -> String {
    let listed = a
        .recommended
        .iter()
        .chain(&a.top)
        .chain(&a.front)
        .find(|d| d.label == label)
        .map(|d| &d.words);
    // A choice's runner-up run for its flip is in no list but its flip.
    let flipped = || {
        a.runner_up
            .iter()
            .chain(a.explanations.iter().filter_map(|e| e.flip.as_ref()))
            .find(|f| f.design == label && f.words.id != words::unnamed().id)
            .map(|f| &f.words)
    };
    listed
        .or_else(flipped)
        .map_or_else(|| label.to_string(), |w| words::sentence(w, lang))
}

/// Returns one design's figures in a line.
fn figures(a: &Advised, lang: Lang) -> String {
    let s = &a.screened;
    let mut t = Text::new("advisor-figures")
        .arg("reads", plain(s.reads))
        .arg("writes", plain(s.writes))
        .arg("keys", plain(s.index_keys_written))
        .arg("storage", binary_size(s.storage.round() as u64))
        .arg("indexes", binary_size(s.index_bytes.round() as u64))
        .arg("score", format!("{:+.3}", a.score))
        .render(lang);
    if let Some(e) = &a.engine {
        let infeasible = if e.infeasible.is_empty() {
            String::new()
        } else {
            Text::new("advisor-figures-infeasible")
                .arg("limits", e.infeasible.join(", "))
                .render(lang)
        };
        t.push_str(
            &Text::new("advisor-figures-engine")
                .arg("reads", plain(e.reads))
                .arg("writes", plain(e.writes))
                .arg("keys", plain(e.index_keys_written))
                .arg("indexes", binary_size(e.index_bytes.round() as u64))
                .arg("examined", plain(e.docs_examined))
                .arg("infeasible", infeasible)
                .render(lang),
        );
    }
    if let Some(c) = &a.cost {
        t.push_str("\n     ");
        t.push_str(&cost_line(c, lang));
    }
    if let Some(err) = &a.engine_error {
        t.push_str(
            &Text::new("advisor-figures-error")
                .arg("error", err)
                .render(lang),
        );
    }
    t
}

/// Returns a duration of work per second (`µs/s` in) as a person reads it: `45.2 ms/s`.
pub fn work(us: f64) -> String {
    if us >= 1_000_000.0 {
        format!("{:.2} s/s", us / 1e6)
    } else if us >= 1_000.0 {
        format!("{:.1} ms/s", us / 1e3)
    } else {
        format!("{us:.0} µs/s")
    }
}

/// Returns a cost term's figure in words (`round_trips` → "round trips").
fn term_name(figure: &str, lang: Lang) -> String {
    let id = match figure {
        "round_trips" => "advisor-term-round-trips",
        "keys_examined" => "advisor-term-keys-examined",
        "docs_examined" => "advisor-term-docs-examined",
        "bytes_returned" => "advisor-term-bytes-returned",
        "docs_written" => "advisor-term-docs-written",
        "bytes_written" => "advisor-term-bytes-written",
        "index_keys_written" => "advisor-term-index-keys-written",
        "docs_from_disk" => "advisor-term-docs-from-disk",
        other => return other.to_string(),
    };
    Text::new(id).render(lang)
}

/// Returns a verified design's cost in a line: its work, read and write, the costliest term
/// and its share, its storage.
pub fn cost_line(c: &Cost, lang: Lang) -> String {
    let total = c.work_us();
    let (term, share) = c.terms.first().map_or((String::new(), 0.0), |t| {
        (
            term_name(&t.figure, lang),
            if total > 0.0 {
                t.us_per_sec / total
            } else {
                0.0
            },
        )
    });
    Text::new("advisor-cost")
        .arg("work", work(total))
        .arg("reads", work(c.read_us))
        .arg("writes", work(c.write_us))
        .arg("term", term)
        .arg("share", format!("{:.0}%", share * 100.0))
        .arg("storage", binary_size(c.storage_bytes.round() as u64))
        .render(lang)
}

/// The message ids that say each condition of a [`Flip`]: a sentence about one runner-up and a
/// line about one design say them in their own words.
struct FlipWords {
    /// The read/write ratio below which the other design wins (`at`, `today`).
    fewer_reads: &'static str,
    /// The read/write ratio above which it wins (`at`, `today`).
    more_reads: &'static str,
    /// The read factor at which it wins, without a ratio of today's (`factor`).
    factor: &'static str,
    /// The storage-weight factor at which it wins (`factor`).
    storage: &'static str,
}

/// Returns the conditions under which `flip` happens, each in its words: the read/write ratio
/// (or the read factor) and the storage weight at which the other design would win.
fn flip_conditions(flip: &Flip, words: &FlipWords, lang: Lang) -> Vec<String> {
    let mut when = Vec::new();
    match (
        flip.read_factor,
        flip.reads_per_write,
        flip.reads_per_write_at_flip,
    ) {
        // The two costs are linear in the read factor inside the logarithm, so they cross
        // once: below a factor under 1 (fewer reads) or above one over 1, the other wins.
        (Some(k), Some(today), Some(at)) => when.push(
            Text::new(if k < 1.0 {
                words.fewer_reads
            } else {
                words.more_reads
            })
            .arg("at", ratio(at))
            .arg("today", ratio(today))
            .render(lang),
        ),
        (Some(k), _, _) => when.push(Text::new(words.factor).arg("factor", ratio(k)).render(lang)),
        _ => {}
    }
    if let Some(m) = flip.storage_weight_factor {
        when.push(
            Text::new(words.storage)
                .arg("factor", ratio(m))
                .render(lang),
        );
    }
    when
}

/// Returns where the pick flips against one other design (`design`, in words), in a line.
pub fn flip_line(f: &Flip, design: &str, lang: Lang) -> String {
    let mut parts = flip_conditions(
        f,
        &FlipWords {
            fewer_reads: "advisor-flip-ratio",
            more_reads: "advisor-flip-ratio",
            factor: "advisor-flip-factor",
            storage: "advisor-flip-storage",
        },
        lang,
    );
    if parts.is_empty() {
        parts.push(Text::new("advisor-flip-never").render(lang));
    }
    Text::new("advisor-flip")
        .arg("design", design)
        .arg("delta", format!("{:+.3}", f.score_delta))
        .arg(
            "when",
            parts.join(&Text::new("advisor-flip-or").render(lang)),
        )
        .render(lang)
}

/// Returns what decides between the recommendation and the runner-up of the decision
/// (`design`, in words), in a line: the side (reads, writes, storage) and the cost term.
pub fn runner_up_line(r: &ChoiceFlip, design: &str, lang: Lang) -> String {
    let side = match r.decided_by.as_deref() {
        Some("reads") => "advisor-runner-up-reads",
        Some("writes") => "advisor-runner-up-writes",
        Some("storage") => "advisor-runner-up-storage",
        _ => "advisor-runner-up-tie",
    };
    let term = r
        .term
        .as_deref()
        .map(|t| {
            Text::new("advisor-choice-flip-decides-term")
                .arg("term", term_name(t, lang))
                .render(lang)
        })
        .unwrap_or_default();
    Text::new(side)
        .arg("design", design)
        .arg("term", term)
        .render(lang)
}

/// Returns a ratio or factor with the digits that matter (two significant ones under 10):
/// `1,200`, `35`, `2.4`, `0.061`, `0.0011`.
fn ratio(v: f64) -> String {
    if v >= 100.0 {
        thousands(v.round() as u64)
    } else if v >= 10.0 {
        format!("{v:.0}")
    } else if v > 0.0 {
        let decimals = (1.0 - v.log10().floor()).clamp(1.0, 12.0) as usize;
        format!("{v:.decimals$}")
    } else {
        "0".to_string()
    }
}

/// Returns the advice as text in English.
pub fn report(a: &Advice) -> String {
    report_in(a, Lang::En)
}

/// Returns the advice as text in `lang`: its words from the catalogue, each design in words
/// ([`words`]); the design's JSON, codes and numbers as they are.
pub fn report_in(a: &Advice, lang: Lang) -> String {
    let mut t = String::new();
    search_lines(&mut t, a, lang);
    recommendation_lines(&mut t, a, lang);
    decision_lines(&mut t, a, lang);
    design_list(&mut t, "advisor-report-top", &a.top, lang);
    design_list(&mut t, "advisor-report-front", &a.front, lang);
    disagreement_lines(&mut t, a, lang);
    t
}

/// Returns message `id` in `lang`.
fn say(lang: Lang, id: &'static str) -> String {
    Text::new(id).render(lang)
}

/// Writes what the search did (its method, the space, explored, feasible) and the weights.
fn search_lines(t: &mut String, a: &Advice, lang: Lang) {
    let say = |id: &'static str| say(lang, id);
    let s = &a.search;
    let method = match s.method.as_ref() {
        "exhaustive" => say("advisor-method-exhaustive"),
        "local" => say("advisor-method-local"),
        other => other.to_string(),
    };
    let _ = writeln!(
        t,
        "{}",
        Text::new("advisor-report-search")
            .arg(
                "model",
                if a.model.is_empty() {
                    say("advisor-report-model")
                } else {
                    a.model.clone()
                }
            )
            .arg("method", method)
            .arg("space", thousands(s.space_size))
            .arg("explored", thousands(s.explored))
            .arg("feasible", thousands(s.feasible))
            .arg("infeasible", thousands(s.infeasible))
            .arg("days", thousands(a.horizon_days))
            .arg("invalid", thousands(s.invalid))
            .render(lang)
    );
    let _ = writeln!(
        t,
        "{}",
        Text::new("advisor-report-weights")
            .arg("reads", a.weights.reads)
            .arg("writes", a.weights.writes)
            .arg("storage", a.weights.storage)
            .render(lang)
    );
}

/// Writes the recommendation: its words, figures, why it scores worse than the yardstick
/// (when it does) and its design's JSON; or that there is none.
fn recommendation_lines(t: &mut String, a: &Advice, lang: Lang) {
    match &a.recommended {
        Some(r) => {
            let _ = writeln!(
                t,
                "\n{}",
                Text::new("advisor-report-recommended")
                    .arg("label", words::sentence(&r.words, lang))
                    .render(lang)
            );
            let _ = writeln!(t, "  {}", figures(r, lang));
            if let Some(y) = &a.worse_than_yardstick {
                let _ = writeln!(t, "  {}", y.words.render(lang));
            }
            let _ = writeln!(
                t,
                "  {}",
                Text::new("advisor-report-design")
                    .arg(
                        "design",
                        serde_json::to_string(&r.design).unwrap_or_default()
                    )
                    .render(lang)
            );
        }
        None => {
            let _ = writeln!(t, "\n{}", say(lang, "advisor-report-none"));
        }
    }
}

/// Writes why each choice was made, the runner-up of the decision (when it costs more) and
/// where the pick flips.
fn decision_lines(t: &mut String, a: &Advice, lang: Lang) {
    let say = |id: &'static str| say(lang, id);
    if !a.explanations.is_empty() {
        let _ = writeln!(t, "\n{}", say("advisor-report-why"));
        for e in &a.explanations {
            let _ = writeln!(t, "  {}", explanation_text(e, lang));
        }
    }
    // The runner-up's line says why it loses: only when it does (costs more).
    let dearer = |r: &&ChoiceFlip| r.flip.as_ref().is_some_and(|f| f.score_delta > 0.0);
    if let Some(r) = a.runner_up.as_ref().filter(dearer) {
        let _ = writeln!(
            t,
            "\n{}",
            runner_up_line(r, &design_in(a, &r.design, lang), lang)
        );
    }
    if !a.flips.is_empty() {
        let _ = writeln!(t, "\n{}", say("advisor-report-flips"));
        for f in &a.flips {
            let _ = writeln!(
                t,
                "  {}",
                flip_line(f, &design_in(a, &f.design, lang), lang)
            );
        }
    }
}

/// Writes the list of designs `designs` under heading `heading`: each its rank, words and
/// figures.
fn design_list(t: &mut String, heading: &'static str, designs: &[super::Advised], lang: Lang) {
    let _ = writeln!(t, "\n{}", say(lang, heading));
    for d in designs {
        let _ = writeln!(
            t,
            "  {}. {}\n     {}",
            d.rank,
            words::sentence(&d.words, lang),
            figures(d, lang)
        );
    }
}

/// Writes where the engine disagreed with the screen beyond its tolerance, or that it agreed.
fn disagreement_lines(t: &mut String, a: &Advice, lang: Lang) {
    let say = |id: &'static str| say(lang, id);
    if a.disagreements.is_empty() {
        let _ = writeln!(t, "\n{}", say("advisor-report-agree"));
    } else {
        let _ = writeln!(t, "\n{}", say("advisor-report-disagree"));
        for d in &a.disagreements {
            let _ = writeln!(
                t,
                "  {}",
                Text::new("advisor-report-disagreement")
                    .arg("design", design_in(a, &d.design, lang))
                    .arg("figure", &d.figure)
                    .arg("screened", plain(d.screened))
                    .arg("engine", plain(d.engine))
                    .arg("low", plain(d.allowed[0]))
                    .arg("high", plain(d.allowed[1]))
                    .arg("note", &d.note)
                    .render(lang)
            );
        }
    }
}
