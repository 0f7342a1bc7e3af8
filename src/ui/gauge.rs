//! A gauge of a document's size against the 16 MiB limit.

use leptos::prelude::*;

use crate::lang::Msg;
use crate::ui::i18n::{t, tr, tv};

use crate::human;
use crate::size::{MAX_BSON_SIZE, WARN_RATIO};

/// Returns how a document of `bytes` stands against the 16 MiB limit, as the page's
/// `data-level` styles it: `over` the limit, `warn` from 80% of it, else `ok`.
pub fn size_level(bytes: u64) -> &'static str {
    if bytes > MAX_BSON_SIZE {
        "over"
    } else if bytes as f64 >= WARN_RATIO * MAX_BSON_SIZE as f64 {
        "warn"
    } else {
        "ok"
    }
}

/// A horizontal gauge of `size` against 16,777,216 bytes, with the 80% warning mark.
#[component]
pub fn LimitGauge(
    /// The document's exact size in bytes.
    #[prop(into)]
    size: Signal<u64>,
    /// What the gauge measures, for screen readers (when a page shows several).
    #[prop(optional, into)]
    label: Option<String>,
) -> impl IntoView {
    let label = move || label.clone().unwrap_or_else(|| t(Msg::GaugeLabel));
    let share = move || size.get() as f64 / MAX_BSON_SIZE as f64;
    let level = move || size_level(size.get());
    let width = move || format!("{:.4}%", (share() * 100.0).min(100.0));
    let headroom = move || {
        let size = size.get();
        if size > MAX_BSON_SIZE {
            tv(
                Msg::GaugeOver,
                &[("size", human::binary_size(size - MAX_BSON_SIZE))],
            )
        } else {
            tv(
                Msg::GaugeHeadroom,
                &[("size", human::binary_size(MAX_BSON_SIZE - size))],
            )
        }
    };
    let warn_at = format!("{}%", WARN_RATIO * 100.0);
    view! {
        <div class="gauge" data-level=level>
            <div
                class="gauge-track"
                role="meter"
                aria-label=label
                aria-valuemin="0"
                aria-valuemax=MAX_BSON_SIZE
                aria-valuenow=move || size.get()
            >
                <div class="gauge-fill" style:width=width></div>
                <div class="gauge-mark warn-mark" style:left=warn_at.clone() title=tr!(GaugeWarningMark)></div>
            </div>
            // The mark's label under it: where the warning starts, without hovering.
            <div class="gauge-scale" aria-hidden="true">
                <span class="gauge-mark-label" style:left=warn_at>{tr!(GaugeWarningMark)}</span>
            </div>
            <div class="gauge-legend">
                <span class="gauge-share">{move || tv(Msg::GaugeShare, &[("share", human::percent(share()))])}</span>
                <span class="gauge-headroom" title=move || crate::ui::i18n::exact_bytes(size.get().abs_diff(MAX_BSON_SIZE))>{headroom}</span>
            </div>
        </div>
    }
}
