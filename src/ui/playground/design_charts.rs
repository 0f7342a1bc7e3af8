//! Every offered design side by side as charts, from the engine's evaluations (the figures of
//! `squillion compare --json`, formatted as the workload view formats them): the cost of each
//! operation per run ([`cost`]) and the storage of each collection at full scale
//! ([`storage`]). The geometry is the core's ([`crate::chart::bars`]); the charts are drawn at
//! the card's measured width, so text is never scaled, clipped or overlapping. A design still
//! evaluating is drawn as such, and one whose evaluation failed says so and why.

mod cost;
mod storage;

use std::sync::Arc;

use leptos::prelude::*;

use crate::chart::bars::columns;
use crate::lang::Msg;
use crate::ui::i18n::{t, tr, tv};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::pipeline::{Key, Outcome, Pipeline};
use crate::eval::Evaluation;

/// Where a design's evaluation is.
#[derive(Debug, Clone)]
pub enum State {
    /// Not evaluated yet.
    Pending,
    /// The engine could not evaluate it: why.
    Failed(String),
    /// Evaluated.
    Done(Arc<Evaluation>),
}

impl PartialEq for State {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (State::Pending, State::Pending) => true,
            (State::Failed(a), State::Failed(b)) => a == b,
            (State::Done(a), State::Done(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

/// One offered design in the charts.
#[derive(Debug, Clone, PartialEq)]
pub struct Design {
    /// Its name, as the CLI spells it (`fan-out_on_write`).
    pub name: String,
    /// As the design bar shows it (`Fan-out on write`).
    pub label: String,
    /// Its evaluation.
    pub state: State,
}

impl Design {
    /// Returns the evaluation, when done.
    pub fn evaluation(&self) -> Option<&Evaluation> {
        match &self.state {
            State::Done(s) => Some(s),
            _ => None,
        }
    }

    /// Returns what stands for a figure of a design not evaluated: `evaluating…` or
    /// `failed: why` (the first sentence of the error).
    pub fn placeholder(&self) -> String {
        match &self.state {
            State::Failed(e) => tv(Msg::PlaceholderFailed, &[("why", brief(e).to_string())]),
            _ => t(Msg::PlaceholderEvaluating),
        }
    }

    /// Returns why the design is infeasible (the codes of its error-severity warnings,
    /// [`Evaluation::infeasible`]); empty while it evaluates, when it failed or is feasible.
    pub fn infeasible(&self) -> Vec<String> {
        self.evaluation()
            .map(Evaluation::infeasible)
            .unwrap_or_default()
    }

    /// Returns the design's name as the charts label it: `Denormalized (infeasible)` for an
    /// infeasible design, so that a short bar is never read as a good design.
    pub fn chart_label(&self) -> String {
        if self.infeasible().is_empty() {
            self.label.clone()
        } else {
            tv(Msg::ChartInfeasibleLabel, &[("label", self.label.clone())])
        }
    }

    /// Returns the state's name for `data-state`: `done`, `pending` or `failed`.
    pub fn state_name(&self) -> &'static str {
        match self.state {
            State::Done(_) => "done",
            State::Pending => "pending",
            State::Failed(_) => "failed",
        }
    }
}

/// Returns true once a design is evaluated and none evaluated has an operation to run (they
/// all share the model's workload): the blank model, whose figures per run or per second
/// would all be 0.
pub fn nothing_to_run(designs: &[Design]) -> bool {
    let mut done = designs.iter().filter_map(Design::evaluation).peekable();
    done.peek().is_some() && done.all(|e| e.operations.is_empty())
}

/// Returns the first sentence of an error message.
fn brief(e: &str) -> &str {
    e.split(". ").next().unwrap_or(e).trim_end_matches('.')
}

/// Returns every offered design (`offers`: id and label, in the design bar's order) with its
/// evaluation so far: the pipeline's cached outcome for the key it evaluates.
pub fn designs(
    offers: Memo<Vec<(String, String)>>,
    wanted: Memo<Vec<Key>>,
    pipeline: Pipeline,
) -> Memo<Vec<Design>> {
    Memo::new(move |_| {
        let keys = wanted.get();
        offers
            .get()
            .into_iter()
            .map(|(id, label)| {
                let state = keys
                    .iter()
                    .find(|k| k.design == id)
                    .and_then(|k| pipeline.cache.with(|c| c.get(k).cloned()))
                    .map_or(State::Pending, |o| match o {
                        Outcome::Done(s, _) => State::Done(s),
                        Outcome::Failed(e) => State::Failed(e),
                    });
                Design {
                    name: id,
                    label,
                    state,
                }
            })
            .collect()
    })
}

/// The measured drawing size: the charts' width and font size in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Size {
    /// Width available to a chart.
    pub width: f64,
    /// Font size of its text (larger in workshop mode).
    pub font: f64,
}

/// The charts' font size in workshop mode, in pixels: tick, bar and value labels readable from
/// the back of a room on a projector at 1280×720.
const WORKSHOP_FONT: f64 = 18.0;

/// The charts' font size otherwise, in pixels.
const NORMAL_FONT: f64 = 12.0;

/// Returns the width of `el`'s content box, as wide as a chart needs at least.
fn measure(el: &web_sys::HtmlElement) -> f64 {
    f64::from(el.client_width()).max(240.0)
}

/// The card of charts, below the comparison table.
#[component]
pub fn DesignCharts(
    /// Every offered design and its evaluation.
    designs: Memo<Vec<Design>>,
) -> impl IntoView {
    let host = NodeRef::<leptos::html::Div>::new();
    let width = RwSignal::new(760.0);
    // Redrawn at the card's width whenever it changes (window, workshop mode, layout).
    Effect::new(move |_| {
        let Some(el) = host.get() else { return };
        let el: web_sys::HtmlElement = el.into();
        // No width read here: reading it while the page is still being built forces a layout
        // of the whole page (124 ms of a cold load's main thread, measured). The observer's
        // first report, made once the browser has laid the page out anyway, sets it.
        let watched = el.clone();
        // `try_`: a resize already queued when the card goes (another view opens) finds the
        // signal disposed and does nothing, instead of panicking.
        let on_resize = Closure::<dyn Fn()>::new(move || {
            let now = measure(&watched);
            if width.try_get_untracked().is_some_and(|was| was != now) {
                width.try_set(now);
            }
        });
        let Ok(observer) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) else {
            return;
        };
        observer.observe(&el);
        // When the card goes, the observer stops and its callback is released with it.
        let held = send_wrapper::SendWrapper::new((observer, on_resize));
        on_cleanup(move || held.0.disconnect());
    });
    // The font follows workshop mode itself: switching the mode redraws the charts at its
    // size even when the card's width stays the same.
    let workshop = use_context::<crate::ui::Workshop>().map(|w| w.0);
    let size = Signal::from(Memo::new(move |_| Size {
        width: width.get(),
        font: if workshop.is_some_and(|w| w.get()) {
            WORKSHOP_FONT
        } else {
            NORMAL_FONT
        },
    }));
    view! {
        <div class="card design-charts">
            <div class="card-head">
                <h2>{tr!(ChartsHeading)}</h2>
                <p class="card-note">{tr!(ChartsNote)}</p>
            </div>
            <div class="chart-host" node_ref=host>
                <cost::CostChart designs size/>
                <storage::StorageChart designs size/>
            </div>
        </div>
    }
}

/// Draws the grid, the tick labels (those that fit) and the axis of a bar chart.
fn axes(
    svg: &mut crate::chart::svg::Svg,
    l: &crate::chart::bars::Layout,
    scale: &crate::chart::bars::Scale,
    font: f64,
    tick_text: fn(f64) -> String,
) {
    for t in l.ticks(scale, font, |v| columns(&tick_text(v))) {
        svg.line("grid", t.x, t.x, l.plot_top, l.plot_bottom);
        if t.labelled {
            svg.text("tick", t.x, l.tick_y, "middle", &tick_text(t.value));
        }
    }
    svg.line("axis", l.plot_x, l.plot_x, l.plot_top, l.plot_bottom);
}

/// The `<svg>` of a chart, with its note above it: `nodes` are built into it once it is in
/// the page (as DOM nodes, names as text).
fn chart_svg(
    l: &crate::chart::bars::Layout,
    font: f64,
    note: String,
    title: String,
    scale: &'static str,
    nodes: Vec<crate::chart::svg::Node>,
) -> AnyView {
    let holder = NodeRef::<leptos::svg::Svg>::new();
    Effect::new(move |_| {
        if let Some(el) = holder.get() {
            crate::ui::svg_dom::fill(&el, &nodes);
        }
    });
    view! {
        <p class="axis-note">{note}</p>
        <svg class="bars" width=l.width height=l.height viewBox=format!("0 0 {} {}", l.width, l.height)
            font-size=font role="group" aria-label=title data-scale=scale node_ref=holder>
        </svg>
    }
    .into_any()
}

/// Draws the grey bar of a figure a design does not have (yet), for operation `op` (cost) or
/// the whole design (storage): the full plot width, labelled for screen readers, with `what`
/// written in it (`evaluating…`, `failed: why`).
fn placeholder_bar(
    svg: &mut crate::chart::svg::Svg,
    l: &crate::chart::bars::Layout,
    r: &crate::chart::bars::Row,
    d: &Design,
    what: &str,
    op: Option<&str>,
    font: f64,
) {
    let label = match op {
        Some(op) => tv(
            Msg::PlaceholderBarOp,
            &[
                ("design", d.label.clone()),
                ("op", op.to_string()),
                ("what", what.to_string()),
            ],
        ),
        None => tv(
            Msg::PlaceholderBar,
            &[("design", d.label.clone()), ("what", what.to_string())],
        ),
    };
    let mut data = vec![("design", d.name.as_str())];
    data.extend(op.map(|op| ("op", op)));
    data.push(("state", d.state_name()));
    svg.rect(
        "bar placeholder",
        l.plot_x,
        r.y,
        l.plot_w,
        r.h,
        &label,
        &data,
    );
    let class = format!("placeholder-text {}", d.state_name());
    let shown = crate::chart::bars::fit_text(what, l.plot_w - l.gap * 2.0, font);
    svg.text(&class, l.plot_x + l.gap, r.text_y, "start", &shown);
}

/// A legend entry: a colour swatch (the colour's class) and its text, with `title` on hover.
fn legend_item(colour: Colour, text: String, state: &'static str, title: String) -> impl IntoView {
    view! {
        <li class=colour.class() data-state=state title=title>
            <span class="swatch" aria-hidden="true"></span>
            {text}
        </li>
    }
}

/// Colours of each palette (for both themes in style.css).
pub const PALETTE: usize = 8;

/// A series' colour. Designs (the cost chart) and collections (the storage chart) take theirs
/// from two palettes of [`PALETTE`] colours each, chosen apart (style.css), so that a
/// collection never shows in a design's colour, however many designs there are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colour {
    /// The `i`th design: `.c0` … `.c7`.
    Design(usize),
    /// The `i`th collection: `.k0` … `.k7`.
    Collection(usize),
}

impl Colour {
    /// Returns the colour's class (`c3`, `k0`), the palette wrapping around.
    pub fn class(self) -> String {
        match self {
            Colour::Design(i) => format!("c{}", i % PALETTE),
            Colour::Collection(i) => format!("k{}", i % PALETTE),
        }
    }
}
