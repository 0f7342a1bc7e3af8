//! Typed fields of an entity: BSON types by MongoDB's alias names, plus value kinds that make
//! generated data look real.

use serde::{Deserialize, Serialize};

use super::distribution::Distribution;

/// A BSON type, spelled as MongoDB's `$type` aliases spell it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum BsonType {
    /// 64-bit binary floating point (8 bytes).
    Double,
    /// UTF-8 string (4-byte length + bytes + NUL).
    String,
    /// Embedded document.
    Object,
    /// Array (a document keyed "0", "1", …).
    Array,
    /// Binary data (4-byte length + subtype byte + bytes).
    BinData,
    /// ObjectId (12 bytes).
    ObjectId,
    /// Boolean (1 byte).
    Bool,
    /// UTC datetime (8 bytes).
    Date,
    /// Null (0 bytes).
    Null,
    /// Regular expression (pattern and options, each NUL-terminated).
    Regex,
    /// JavaScript code (a string).
    #[serde(rename = "javascript")]
    JavaScript,
    /// 32-bit integer (4 bytes).
    Int,
    /// Internal timestamp (8 bytes).
    Timestamp,
    /// 64-bit integer (8 bytes).
    Long,
    /// 128-bit decimal (16 bytes).
    Decimal,
    /// MinKey (0 bytes).
    MinKey,
    /// MaxKey (0 bytes).
    MaxKey,
}

impl BsonType {
    /// Returns every type, in the order of their BSON type numbers.
    pub const ALL: [BsonType; 17] = [
        BsonType::Double,
        BsonType::String,
        BsonType::Object,
        BsonType::Array,
        BsonType::BinData,
        BsonType::ObjectId,
        BsonType::Bool,
        BsonType::Date,
        BsonType::Null,
        BsonType::Regex,
        BsonType::JavaScript,
        BsonType::Int,
        BsonType::Timestamp,
        BsonType::Long,
        BsonType::Decimal,
        BsonType::MinKey,
        BsonType::MaxKey,
    ];

    /// Returns the alias as written in a model (`"objectId"`, `"binData"`, …).
    pub fn alias(self) -> &'static str {
        match self {
            BsonType::Double => "double",
            BsonType::String => "string",
            BsonType::Object => "object",
            BsonType::Array => "array",
            BsonType::BinData => "binData",
            BsonType::ObjectId => "objectId",
            BsonType::Bool => "bool",
            BsonType::Date => "date",
            BsonType::Null => "null",
            BsonType::Regex => "regex",
            BsonType::JavaScript => "javascript",
            BsonType::Int => "int",
            BsonType::Timestamp => "timestamp",
            BsonType::Long => "long",
            BsonType::Decimal => "decimal",
            BsonType::MinKey => "minKey",
            BsonType::MaxKey => "maxKey",
        }
    }

    /// Returns the type for an alias, if it is one.
    pub fn from_alias(s: &str) -> Option<BsonType> {
        BsonType::ALL.into_iter().find(|t| t.alias() == s)
    }

    /// Returns the value size in bytes when it does not depend on the value.
    pub fn fixed_size(self) -> Option<u64> {
        match self {
            BsonType::Double | BsonType::Date | BsonType::Timestamp | BsonType::Long => Some(8),
            BsonType::ObjectId => Some(12),
            BsonType::Bool => Some(1),
            BsonType::Null | BsonType::MinKey | BsonType::MaxKey => Some(0),
            BsonType::Int => Some(4),
            BsonType::Decimal => Some(16),
            _ => None,
        }
    }

    /// Returns true for types whose length comes from a `length` distribution.
    pub fn has_length(self) -> bool {
        matches!(
            self,
            BsonType::String | BsonType::BinData | BsonType::Regex | BsonType::JavaScript
        )
    }
}

/// What a value means, so that generated data looks like the real thing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ValueKind {
    /// A person's full name ("Kate Monster").
    Name,
    /// An e-mail address.
    Email,
    /// A login name ("batman", "wil").
    Username,
    /// Lorem-like prose.
    Text,
    /// A single word (titles, tags).
    Word,
    /// A host name ("goofy.example.com").
    Hostname,
    /// A dotted IPv4 address.
    Ip,
    /// A URL.
    Url,
    /// A price between `min` and `max` with two decimals.
    Price,
    /// A quantity between `min` and `max`.
    Quantity,
    /// One of `values`.
    Enum,
    /// A date between `from` and `to`.
    DateRange,
    /// 0, 1, 2, … in insertion order.
    Sequence,
    /// A counter that starts at zero.
    Counter,
    /// A part or catalog number ("123-aff-456").
    Code,
}

impl ValueKind {
    /// Every kind, in the order the docs list them: the one list of value kinds.
    pub const ALL: [ValueKind; 15] = [
        ValueKind::Name,
        ValueKind::Email,
        ValueKind::Username,
        ValueKind::Text,
        ValueKind::Word,
        ValueKind::Hostname,
        ValueKind::Ip,
        ValueKind::Url,
        ValueKind::Price,
        ValueKind::Quantity,
        ValueKind::Enum,
        ValueKind::DateRange,
        ValueKind::Sequence,
        ValueKind::Counter,
        ValueKind::Code,
    ];

    /// Returns the name as written in a model (`kind`).
    pub fn name(self) -> &'static str {
        match self {
            ValueKind::Name => "name",
            ValueKind::Email => "email",
            ValueKind::Username => "username",
            ValueKind::Text => "text",
            ValueKind::Word => "word",
            ValueKind::Hostname => "hostname",
            ValueKind::Ip => "ip",
            ValueKind::Url => "url",
            ValueKind::Price => "price",
            ValueKind::Quantity => "quantity",
            ValueKind::Enum => "enum",
            ValueKind::DateRange => "date_range",
            ValueKind::Sequence => "sequence",
            ValueKind::Counter => "counter",
            ValueKind::Code => "code",
        }
    }

    /// Returns the kind called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<ValueKind> {
        ValueKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Returns the length distribution a string of this kind has when none is given.
    pub fn default_length(self) -> Distribution {
        let (min, max) = match self {
            ValueKind::Name => (8.0, 20.0),
            ValueKind::Email => (14.0, 30.0),
            ValueKind::Username => (4.0, 14.0),
            ValueKind::Text => (40.0, 200.0),
            ValueKind::Word => (4.0, 10.0),
            ValueKind::Hostname => (12.0, 24.0),
            ValueKind::Ip => (11.0, 15.0),
            ValueKind::Url => (20.0, 60.0),
            ValueKind::Code => (11.0, 11.0),
            _ => (8.0, 16.0),
        };
        Distribution::Uniform { min, max }
    }
}

/// One field of an entity (or of an embedded object, or the elements of an array).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[cfg_attr(
    not(target_arch = "wasm32"),
    schemars(extend("allOf" = [
        {
            "if": { "properties": { "type": { "const": "array" } } },
            "then": { "required": ["items", "count"] }
        },
        {
            "if": { "properties": { "type": { "const": "object" } } },
            "then": { "required": ["fields"] }
        },
        {
            "if": { "properties": { "kind": { "const": "enum" } }, "required": ["kind"] },
            "then": { "required": ["values"] }
        }
    ]))
)]
#[serde(deny_unknown_fields)]
pub struct Field {
    /// The BSON type.
    #[serde(rename = "type")]
    pub ty: BsonType,
    /// For arrays: the element type (`"object"` means elements have `fields`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(target_arch = "wasm32"), schemars(extend("not" = { "const": "array" })))]
    pub items: Option<BsonType>,
    /// What the value means (for generation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<ValueKind>,
    /// Length in bytes of strings, binData payloads, regex patterns, code (or of array elements
    /// of those types). Defaults to the kind's usual length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<Distribution>,
    /// For arrays: how many elements.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<Distribution>,
    /// For objects and arrays of objects: the sub-fields, in order.
    #[serde(default, skip_serializing_if = "Fields::is_empty")]
    pub fields: Fields,
    /// Probability (0..=1) that the field is present; absent fields cost nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(target_arch = "wasm32"), schemars(range(min = 0, max = 1)))]
    pub presence: Option<f64>,
    /// For `enum`: the possible values.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(not(target_arch = "wasm32"), schemars(length(min = 1)))]
    pub values: Vec<String>,
    /// Lower bound of numbers (prices, quantities).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    /// Upper bound of numbers (prices, quantities).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    /// Start of a date range (`YYYY-MM-DD`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        not(target_arch = "wasm32"),
        schemars(regex(pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"))
    )]
    pub from: Option<String>,
    /// End of a date range (`YYYY-MM-DD`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        not(target_arch = "wasm32"),
        schemars(regex(pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"))
    )]
    pub to: Option<String>,
    /// For arrays: the count is drawn on its own for every value, not at the document's one
    /// quantile with its other arrays (`arith::tail`, `generate`). Inference sets it on the
    /// arrays of a child entity whose values are elements of a parent's array or map: their
    /// counts were fitted over every element, whichever parent it was in, so they say nothing
    /// of a big parent's elements all being big (a customer's four map entries do not all
    /// hold the most benefits).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub independent: bool,
    /// For `enum`: the values listed are today's and new ones keep coming (a store's sales
    /// channels, a game's items), not a fixed set (a character's six abilities). A design that
    /// keys a sub-document by such a field and indexes each key needs a `createIndex` for
    /// every new value and passes MongoDB's 64 indexes a collection in time: the advisor calls
    /// it infeasible (`OPEN_KEYS_INDEXED`, docs/advisor.md).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub values_open: bool,
}

impl Field {
    /// Returns a plain field of type `ty` (always present, default kind and length).
    pub fn of(ty: BsonType) -> Self {
        Field {
            ty,
            items: None,
            kind: None,
            length: None,
            count: None,
            fields: Fields::default(),
            presence: None,
            values: Vec::new(),
            min: None,
            max: None,
            from: None,
            to: None,
            independent: false,
            values_open: false,
        }
    }

    /// Returns a string field of exactly `len` bytes.
    pub fn string_of_len(len: u64) -> Self {
        Field {
            length: Some(Distribution::fixed(len as f64)),
            ..Field::of(BsonType::String)
        }
    }

    /// Returns an array of `items` with a count distribution.
    pub fn array_of(items: BsonType, count: Distribution) -> Self {
        Field {
            items: Some(items),
            count: Some(count),
            ..Field::of(BsonType::Array)
        }
    }

    /// Returns an array of sub-documents with the given fields.
    pub fn array_of_objects(fields: Fields, count: Distribution) -> Self {
        Field {
            items: Some(BsonType::Object),
            count: Some(count),
            fields,
            ..Field::of(BsonType::Array)
        }
    }

    /// Returns a map as a layout writes it (the `map` field pattern): an object of `count`
    /// entries, each named by a key whose length is `key_length` and holding a sub-document of
    /// `fields`. Only a layout makes one: a model's object has no `count` (validation refuses
    /// it), so an object with a `count` is a map wherever a layout's fields are read.
    pub fn map_of(fields: Fields, count: Distribution, key_length: Distribution) -> Self {
        Field {
            items: Some(BsonType::Object),
            count: Some(count),
            length: Some(key_length),
            fields,
            ..Field::of(BsonType::Object)
        }
    }

    /// Returns true for a map ([`Field::map_of`]): an object with a count of entries.
    pub fn is_map(&self) -> bool {
        self.ty == BsonType::Object && self.count.is_some()
    }

    /// Returns the presence probability (1 when not given).
    pub fn presence(&self) -> f64 {
        self.presence.unwrap_or(1.0)
    }

    /// Returns the length distribution of this value (or of array elements), falling back to
    /// the kind's default, or to the number of bytes of the longest enum value.
    pub fn length_distribution(&self) -> Distribution {
        if let Some(d) = &self.length {
            return d.clone();
        }
        if !self.values.is_empty() {
            let min = self.values.iter().map(|v| v.len()).min().unwrap_or(0) as f64;
            let max = self.values.iter().map(|v| v.len()).max().unwrap_or(0) as f64;
            return Distribution::Uniform { min, max };
        }
        self.kind.unwrap_or(ValueKind::Word).default_length()
    }

    /// Returns the element description of an array field (its items as a field of their own).
    pub fn element(&self) -> Field {
        Field {
            ty: self.items.unwrap_or(BsonType::Null),
            items: None,
            kind: self.kind,
            length: self.length.clone(),
            count: None,
            fields: self.fields.clone(),
            presence: None,
            values: self.values.clone(),
            min: self.min,
            max: self.max,
            from: self.from.clone(),
            to: self.to.clone(),
            independent: false,
            values_open: false,
        }
    }
}

/// Named fields in document order (written in JSON as an object: `{"name": {…}, …}`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Fields(pub Vec<(String, Field)>);

impl Fields {
    /// Returns true when there are no fields.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Returns the field called `name`.
    pub fn get(&self, name: &str) -> Option<&Field> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, f)| f)
    }

    /// Returns the fields in order.
    pub fn iter(&self) -> impl Iterator<Item = &(String, Field)> {
        self.0.iter()
    }

    /// Appends a field (or replaces one of the same name).
    pub fn push(&mut self, name: impl Into<String>, field: Field) {
        let name = name.into();
        if let Some(slot) = self.0.iter_mut().find(|(n, _)| *n == name) {
            slot.1 = field;
        } else {
            self.0.push((name, field));
        }
    }
}

impl Serialize for Fields {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Fields;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of field name → field description")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Fields, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = a.next_entry::<String, Field>()? {
                    out.push((k, v));
                }
                Ok(Fields(out))
            }
        }
        d.deserialize_map(V)
    }
}
