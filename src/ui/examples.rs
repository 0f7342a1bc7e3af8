//! Example documents from the source articles, kept as data files in `data/examples/`.

use crate::lang::Msg;

/// One example document: a label for the picker and the text as a user would paste it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Example {
    /// Stable identifier (the data file's name).
    pub id: &'static str,
    /// What the picker shows, from the page's catalogue (so it follows the language).
    pub label: Msg,
    /// The document in mongosh syntax.
    pub text: &'static str,
}

/// The examples, in the order the picker lists them.
pub const EXAMPLES: &[Example] = &[
    Example {
        id: "social-graph-user",
        label: Msg::ExampleSocialGraphUser,
        text: include_str!("../../data/examples/social-graph-user.js"),
    },
    Example {
        id: "shopping-cart-order",
        label: Msg::ExampleShoppingCartOrder,
        text: include_str!("../../data/examples/shopping-cart-order.js"),
    },
    Example {
        id: "movie-prices",
        label: Msg::ExampleMoviePrices,
        text: include_str!("../../data/examples/movie-prices.js"),
    },
    Example {
        id: "page-analytics",
        label: Msg::ExamplePageAnalytics,
        text: include_str!("../../data/examples/page-analytics.js"),
    },
    Example {
        id: "person-addresses",
        label: Msg::ExamplePersonAddresses,
        text: include_str!("../../data/examples/person-addresses.js"),
    },
    Example {
        id: "game-inventory",
        label: Msg::ExampleGameInventory,
        text: include_str!("../../data/examples/game-inventory.js"),
    },
];
