//! Example documents from the source articles, kept as data files in `data/examples/`.

/// One example document: a label for the picker and the text as a user would paste it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Example {
    /// Stable identifier (the data file's name).
    pub id: &'static str,
    /// What the picker shows.
    pub label: &'static str,
    /// The document in mongosh syntax.
    pub text: &'static str,
}

/// The examples, in the order the picker lists them.
pub const EXAMPLES: &[Example] = &[
    Example {
        id: "social-graph-user",
        label: "Social graph: a user with a followers array",
        text: include_str!("../../data/examples/social-graph-user.js"),
    },
    Example {
        id: "shopping-cart-order",
        label: "Shopping cart: an order with embedded items",
        text: include_str!("../../data/examples/shopping-cart-order.js"),
    },
    Example {
        id: "movie-prices",
        label: "Movie showing: prices per channel",
        text: include_str!("../../data/examples/movie-prices.js"),
    },
    Example {
        id: "page-analytics",
        label: "Page analytics: 6 hours of per-minute counters",
        text: include_str!("../../data/examples/page-analytics.js"),
    },
    Example {
        id: "person-addresses",
        label: "One-to-few: a person with addresses",
        text: include_str!("../../data/examples/person-addresses.js"),
    },
    Example {
        id: "game-inventory",
        label: "Game inventory: items as an array",
        text: include_str!("../../data/examples/game-inventory.js"),
    },
];
