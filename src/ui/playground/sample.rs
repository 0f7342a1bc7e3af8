//! A collection card's sample document: the typical one (the sampled document nearest the
//! table's p50, which the panel says beside its size; the sample's median in older JSON) or,
//! one click away, the largest, as the evaluation carries them (`eval::sample`): its pretty
//! Extended JSON, its exact size against the 16 MiB limit and where its bytes go, with the
//! Document size page's own gauge and breakdown. When the collection's largest document at
//! full scale is bigger than the sample's largest, a second gauge shows that figure, labelled
//! exact or estimate.

use leptos::prelude::*;

use crate::lang::Msg;
use crate::ui::i18n::{t, tv};

use crate::eval::sample::{SampleDocs, SampleDocument};
use crate::human;
use crate::stats::SizeFigure;
use crate::ui::{BreakdownTable, Composition, LimitGauge};

/// The sample document panel of one collection card.
#[component]
pub fn SampleDocumentPanel(
    /// The collection's name (for labels).
    collection: String,
    /// Its typical and largest sample documents.
    samples: SampleDocs,
    /// Documents sampled.
    sampled: u64,
    /// The largest document at full scale (the shape table's "Largest").
    full_largest: SizeFigure,
) -> impl IntoView {
    let largest = RwSignal::new(false);
    let docs = StoredValue::new(samples);
    let shown = Signal::derive(move || {
        docs.with_value(|d| {
            if largest.get() {
                d.largest.clone()
            } else {
                d.typical.clone()
            }
        })
    });
    let size = Signal::derive(move || shown.with(|d| d.bytes));
    let analysis = Signal::derive(move || shown.with(|d| d.breakdown.clone()));
    let beyond = move || {
        let d = shown.get();
        (largest.get() && full_largest.bytes > d.bytes).then_some(full_largest)
    };
    let p50 = docs.with_value(|d| d.p50.as_ref().map(|of| of.p50));
    let doc_label = tv(Msg::SampleDocLabel, &[("collection", collection.clone())]);
    let toggle = move |want: bool| {
        view! {
            <button
                type="button"
                class="segment"
                data-which=if want { "largest" } else { "typical" }
                aria-pressed=move || (largest.get() == want).to_string()
                on:click=move |_| largest.set(want)
            >
                {t(if want { Msg::SampleLargest } else { Msg::SampleTypical })}
            </button>
        }
    };
    view! {
        <section class="sample" data-which=move || if largest.get() { "largest" } else { "typical" }>
            <div class="sample-head">
                <h4>{t(Msg::SampleHeading)}</h4>
                <div class="segmented" role="group" aria-label=tv(Msg::SampleWhich, &[("collection", collection.clone())])>
                    {toggle(false)}
                    {toggle(true)}
                </div>
            </div>
            <p class="sample-size">
                <strong data-metric="sample_bytes" data-value=move || size.get().to_string() title=move || crate::ui::i18n::exact_bytes(size.get())>
                    {move || human::binary_size(size.get())}
                </strong>
                <span class="muted">{move || describe(&shown.get(), largest.get(), sampled, beyond().map(|f| f.bytes), p50)}</span>
            </p>
            <LimitGauge size=size label=t(Msg::GaugeThisDocument)/>
            {move || beyond().map(|f| {
                let approx = if f.exact { "" } else { "≈ " };
                let basis = t(if f.exact {
                    Msg::BasisExact
                } else {
                    Msg::BasisEstimate
                });
                view! {
                    <p class="sample-full" data-metric="full_largest" data-value=f.bytes.to_string()>
                        {t(Msg::LargestFullScale)}" "
                        <strong title=crate::ui::i18n::exact_bytes(f.bytes)>{format!("{approx}{}", human::binary_size(f.bytes))}</strong>
                        <span class="muted">" "{tv(Msg::Parenthesized, &[("text", basis)])}</span>
                    </p>
                    <LimitGauge size=f.bytes label=t(Msg::GaugeLargestFull)/>
                }
            })}
            <pre class="code sample-doc" tabindex="0" aria-label=doc_label>{move || shown.with(|d| d.ejson.clone())}</pre>
            {move || {
                let d = shown.get();
                (!d.outside.is_empty()).then(|| {
                    let count: u64 = d.outside.iter().map(|o| o.count).sum();
                    let fields: Vec<String> = d.outside.iter().map(|o| o.field.clone()).collect();
                    view! {
                        <p class="sample-note sample-outside muted" data-metric="outside_refs" data-value=count.to_string()>
                            {tv(Msg::SampleOutside, &[
                                ("count", human::thousands(count)),
                                ("fields", crate::lang::text::join(crate::ui::i18n::lang(), &fields)),
                            ])}
                        </p>
                    }
                })
            }}
            {move || {
                let d = shown.get();
                d.truncated.then(|| {
                    let left = if d.omitted > 0 {
                        tv(Msg::SampleLeftOut, &[("count", human::thousands(d.omitted))])
                    } else {
                        t(Msg::SampleStringsCut)
                    };
                    view! {
                        <p class="sample-note muted">
                            {tv(Msg::SampleShortened, &[("left", left)])}
                        </p>
                    }
                })
            }}
            <details class="sample-breakdown">
                <summary>{t(Msg::BytesPerField)}</summary>
                <Composition analysis=analysis/>
                // A scrolling region: focusable so that the keyboard can scroll it.
                <div class="table-wrap sample-table" tabindex="0" role="region"
                    aria-label=tv(Msg::BytesPerFieldOf, &[("collection", collection.clone())])>
                    <BreakdownTable analysis=analysis/>
                </div>
            </details>
        </section>
    }
}

/// Returns what the shown document is: which one, of how many, and its full-scale size when
/// the sample cut its arrays short, unless the full-scale gauge that follows (`gauge`) shows
/// the same figure. The two differ when the shape's largest is an estimate: this document's
/// own strings (a longer e-mail, say) are exact, the estimate takes every field at its mean.
fn describe(
    d: &SampleDocument,
    largest: bool,
    sampled: u64,
    gauge: Option<u64>,
    p50: Option<SizeFigure>,
) -> String {
    let count = [("count", human::thousands(sampled))];
    let which = match p50 {
        _ if largest => format!(" {}", tv(Msg::SampleLargestOf, &count)),
        // Chosen as the table's p50 document: the figure it stands for beside its own size.
        Some(p) => {
            let approx = if p.exact { "" } else { "≈ " };
            format!(
                " {}",
                tv(
                    Msg::SampleNearestP50,
                    &[
                        ("count", human::thousands(sampled)),
                        ("p50", format!("{approx}{}", human::binary_size(p.bytes))),
                    ]
                )
            )
        }
        None => format!(" {}", tv(Msg::SampleMedianOf, &count)),
    };
    let full = if d.full_bytes.bytes > d.bytes && gauge != Some(d.full_bytes.bytes) {
        let (approx, exact) = if d.full_bytes.exact {
            (String::new(), format!(" {}", t(Msg::ExactMarker)))
        } else {
            ("≈ ".to_string(), String::new())
        };
        format!(
            " {}",
            tv(
                Msg::SampleEveryElement,
                &[
                    ("approx", approx),
                    ("bytes", human::thousands(d.full_bytes.bytes)),
                    ("exact", exact),
                ]
            )
        )
    } else {
        String::new()
    };
    format!("{which}{full}")
}
