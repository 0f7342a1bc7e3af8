//! Warnings about a layout.
