# Squillion's messages in English: the source text of every warning and its fix.
# Project Fluent syntax (https://projectfluent.org/fluent/guide/). A message's values come
# formatted ($size is "16 MiB", $count "844,411"); lists come joined ("a and b"); a value
# named like a clause ($how_many, $tail, $when) is another message of this file, rendered
# first. Braces in text are written {"{"} and {"}"}; a leading space {" "}; nothing {""}.
# Every id here must exist in every other language's messages.ftl with the same values
# (tests/suite/catalogues.rs). docs/warnings.md documents each code.

## Shared clauses

exact = exact
estimate = estimate
how-many = at full scale { $about }{ $share } of { $shape } documents ({ $about }{ $documents }) are over it
how-many-because = at full scale { $about }{ $share } of { $shape } documents ({ $about }{ $documents }) are over it, because of { $fields }
break-on = on { $date } (in { $days } days)
break-beyond = not within { $years } years
nothing = {""}
already-has = {" "}— the largest parent already has { $count }
reaches-both = ; growing { $growth }/day the largest parent reaches it { $largest }, a typical parent { $typical }
reaches-largest = ; growing { $growth }/day the largest parent reaches it { $largest }
still-growing = , still growing { $growth }/day with no cap
fix-store-outside = Store { $fields } outside the document: in GridFS (fs.files + fs.chunks in 255 KiB chunks, any size; the gridfs field pattern), or in object storage (S3, GCS, Azure Blob) with a reference (its URL or key) in the document; or keep the value well under 16 MiB.
fix-cap-arrays = Cap { $fields } (embed a subset, bucket, continuation documents) or reference the children from their own collection.
fix-move-objects = Move { $fields } into its own collection and reference it.
fix-cap-array = Cap the array (embed a subset, bucket, continuation documents) or reference the children from their own collection.
fix-sentences = { $sentences }
basis-sample = Sample
basis-full-scale = FullScale
basis-estimate = Estimate
monotonic-object-id = an ObjectId _id starts with its creation time
monotonic-date = a creation date or timestamp grows with time
monotonic-sequence = a sequence number only grows

## Documents and the 16 MiB limit

largest-expected-figure = the largest { $shape } document expected among { $count } at full scale
largest-bound-figure = the largest { $shape } document the model allows (every field present at its longest, every array full)

doc-over-limit = { $figure } would be { $size } ({ $exactness }), { $over } over the 16 MiB limit: mongod rejects it (BSONObjectTooLarge, code 10334; 17419 for an update's result); { $how_many }
doc-can-exceed-limit = the largest { $shape } document the model allows (every field present at its longest, every array full) would be { $size }, { $over } over the 16 MiB limit; but the longest values rarely meet: { $how_many } (fewer than one expected)
doc-near-limit = { $figure } is { $size } ({ $exactness }), within 20% of the 16 MiB limit (≥ { $near })
doc-near-limit-fix = Leave headroom: cap or move the growing part before it reaches the limit.
bloated-document = { $figure } is { $size } ({ $exactness }), over Compass's bloated-document threshold of 10 MB ({ $threshold }); { $how_many }: every read and rewrite moves them whole
bloated-document-fix = Move rarely-read or growing parts into their own collection. { $fix }
array-break-point = { $collection }.{ $field } breaks the 16 MiB limit at { $count } elements ({ $exactness }, { $element } per element){ $tail }
array-break-point-fix = Keep the array bounded: continuation documents past a threshold, buckets, or a reference in the child.
unbounded-array = { $collection }.{ $field } is unbounded: up to { $count } elements{ $growing } (Compass flags arrays of ≥ 250 objects, ids or strings)
unbounded-array-fix = Never embed unbounded growth: use a reference in the child, buckets, or keep only the newest k.
unbounded-declared-array-fix = Cap the array or move its elements into their own collection.
depth-over-limit = documents nest { $depth } levels deep, beyond the documented limit of 100
depth-over-limit-fix = Flatten the structure or reference deep parts.

## Indexes and collections

index-limit = { $count } indexes: a collection can have at most 64
index-limit-fix = Use an array of {"{"}k, v{"}"} with one multikey index instead of one index per key.
too-many-indexes = { $count } indexes, more than Compass's threshold of 10: every write updates them all
too-many-indexes-fix = Merge indexes with common prefixes; use the attribute pattern for per-key indexes.
too-many-collections = { $count } collections, more than Compass's threshold of 10,000
too-many-collections-fix = Put documents of the same shape in one collection with a discriminating field.
unused-index = Index { $index } is scanned by no command of the workload (no winning plan nor $lookup uses it); { $writes } documents written/s in { $collection } maintain it (estimate)
unused-indexes = { $count } indexes are scanned by no command of the workload (no winning plan nor $lookup uses them): { $indexes }; together ≈{ $bytes } at full scale and ≈{ $keys } index keys written/s to maintain them ({ $writes } documents written/s in { $collection }; estimate)
unused-index-item = { $index } (≈{ $bytes }, ≈{ $keys } keys written/s)
unused-index-more = { $listed } and { $more } more
unused-index-fix = Drop what no query needs (db.{ $collection }.dropIndex(name)); hide an index first (db.{ $collection }.hideIndex(name)) to see whether anything outside the workload slows down.

## Field patterns

mmapv1-preallocation = { $field } pre-allocates { $slots } counters. Pre-allocation (and padding, usePowerOf2Sizes) paid off on the old MMAPv1 engine, where a growing document had to move on disk; WiredTiger writes a new version of the whole document on every update, so zeros written in advance buy no in-place growth
mmapv1-preallocation-fix = Keep the pre-populated shape only if it makes reads simpler; otherwise let $inc create counters on first use.
keyed-attributes = { $field } is a sub-document keyed by attribute: querying by any attribute needs one index per key ({ $keys } keys), and a new key needs a new index
keyed-attributes-fix = Use an array of {"{"}k, v{"}"} with one multikey index on {"{"}k: 1, v: 1{"}"}.
approximate-counter = { $field } is written once every { $every } increments, by { $every }: at most { $unrecorded } increments of a document are not yet counted; at { $per_day } increments a document a day, that is at most { $error }% of a day's count
approximate-counter-fix = Accept the error only where nobody needs the exact count (views, readings, likes); keep an exact counter where money or limits depend on it.
approximation-too-coarse = { $field } is written once every { $every } increments, but a document gets only { $per_day } increments a day: most documents' counters stay behind by more than a day's worth, or are never written
approximation-too-coarse-fix = Lower every to at most the increments a document gets in the period a reader looks at, or count exactly.
archive-split = { $collection } keeps the last { $days } days ({ $live } documents) and { $archive } the older { $old }; moving them costs an insert and a delete { $per_sec } times a second, and a read of old data one more query
archive-split-fix = Run the move as a scheduled batch (insertMany into the archive, then deleteMany by date) off peak; put the archive on cheaper storage or another cluster if its indexes need not stay in the cache.
archive-empty = No { $entity } is older than { $days } days at this growth: the archive stays empty
archive-empty-fix = Lower after_days below the age of the data, or drop the archive.
history-growth = { $collection } gains { $docs } documents ({ $bytes }) a day: every update of { $entity } keeps its previous version
history-growth-fix = Expire old versions (a TTL index on a date in the history) or keep only the fields an audit needs.

## Copies, queries and reads

live-copy-amplification = { $path } copies { $entity }.{ $source } live: { $writes }/s updates rewrite ≈{ $per_write } copies each ({ $copy_writes } document writes/s) to save { $reads }/s reads (read/write ratio { $ratio })
live-copy-amplification-run = "{ $unit }" ({ $rate }/s) rewrites { $per_update } documents per update to keep { $path } live ({ $largest } for the largest parent; { $basis }): { $writes } document writes/s to save { $reads }/s reads through { $relationship } (read/write ratio { $ratio })
live-copy-amplification-fix = Denormalize only read-mostly fields; keep this field by reference, or copy it as a snapshot if point-in-time is correct.
unindexed-query = "{ $unit }" runs { $command } with no index on { $keys }: a collection scan
unindexed-query-fix = Create the index shown in the layout.
unindexed-query-run = "{ $unit }" runs { $command } as a COLLSCAN: { $examined } documents examined per run at full scale
case-insensitive-without-index = "{ $unit }" finds a document whatever its case with { $command }: a case-insensitive regex, which no index bounds, so { $scanned } per run at full scale
case-insensitive-collscan = the COLLSCAN examines { $examined } documents
case-insensitive-ixscan = the scan of { $index } examines all { $keys } keys
case-insensitive-without-index-fix = Create an index with a case-insensitive collation, { $create }, and query with the same collation ({ $query }): the field pattern { $pattern }.
unindexed-query-run-fix = Create an index whose first key is the filter's equality field (the layout lists the ones the workload needs).
scatter-gather = "{ $unit }" runs { $command } without the shard key { $shard_key }: it reaches all { $shards } shards and waits for the slowest
scatter-gather-run = "{ $unit }" runs { $command } without the shard key { $shard_key }: it reaches all { $shards } shards ({ $rate }/s × { $shards } = { $requests } shard requests/s) and waits for the slowest
scatter-gather-fix = Shard by the field reads filter on (e.g. owner for a fan-out-on-write feed), or include the shard key in the filter.
separated-read = "{ $unit }" ({ $rate }/s) reads { $entity } by { $by } with its { $relationship } in { $trips } round trips, { $extra } of them for the { $child } documents in collection { $collection }: read together, stored apart, though no { $parent } has more than { $max } (bounded, not growing) and no workload step reads, lists, inserts or deletes { $child } documents on their own. Embedded, the read is { $saved }: { $fewer } a second fewer
round-trip = { $count } round trip
round-trips = { $count } round trips
separated-read-fix = Store together what is read together: embed { $child } in { $parent } (strategy embed, as the denormalized design does), or keep an extended reference that copies the { $child } fields the read shows (strategy extended_reference with copy).
excessive-lookup = "{ $unit }" ({ $rate }/s) joins { $from } with $lookup on every call: { $lookups } $lookups/s into { $from }, which the workload writes { $written } times/s ({ $ratio }). Each $lookup reads a second collection for data that changes far less often than it is joined
excessive-lookup-ratio = read/write ratio { $ratio }
excessive-lookup-never-written = never written by the workload
excessive-lookup-fix = Copy what the read shows of { $from } into the document it reads: embed it where it is bounded, or keep an extended reference (strategy extended_reference with copy); keep $lookup for rare reads or data that changes as often as it is read.

## Many-to-many

parents-per-child-assumed = { $collection }.{ $field } holds each { $child }'s { $parent } ids ({ $relationship }, many-to-many): the model states no parents_per_child, so every child gets the mean, { $mean } ids ({ $parents } parents × { $per_parent } children each ÷ { $children } children), as its p50, p99 and largest: the tail is assumed
parents-per-child-assumed-fix = State parents_per_child on the relationship (how many parents one child has: typical, p99, max) so the array's tail is the real one.
parents-per-child-disagrees = { $relationship }: the two sides count different links: { $parents } parents × { $per_parent } children each = { $from_parents }, but { $children } children × { $per_child } parents each (parents_per_child) = { $from_children }; { $collection }.{ $field } holds the latter
parents-per-child-disagrees-fix = Make the means agree (parents × mean cardinality = children × mean parents_per_child), or read each side's figures as its own assumption.

## The cluster

hot-shard = One shard-key value ({ $value }) holds ≈{ $bytes }, { $factor }× a shard's even share of the collection: its documents cannot be split, so one of the { $shards } shards holds them all (estimate from the sample).
hot-shard-fix = Add a field to the shard key that splits a large value's documents (e.g. {"{"} owner: 1, sequence: 1 {"}"}), or bucket them.
jumbo-chunk = ≈{ $count } shard-key value(s) hold more than a chunk (128 MiB): such a chunk can never be split or moved by the balancer (estimate from the sample).
jumbo-chunk-fix = Choose a shard key with more distinct values per document, or add a second field to it.
monotonic-shard-key = Ranged shard key { $shard_key }: { $field }: { $why }: every insert goes to the last chunk, on one shard.
monotonic-shard-key-fix = Use a hashed shard key, or lead the key with a field that is not insertion-ordered.
working-set-exceeds-cache = Working set ≈{ $working_set } per shard (hot documents of an hour plus every index) exceeds the WiredTiger cache of { $cache } (50% of { $ram } of RAM − 1 GiB): reads go to disk.
working-set-exceeds-cache-fix = Add RAM or shards, drop unused indexes, or shrink the hot documents.

## The CLI's reports

report-warnings = Warnings
report-no-warnings = No warnings.
report-fix = fix:{" "}
severity-info = Info
severity-warning = Warning
severity-error = Error

## Time series

sparse-time-series-buckets = granularity "{ $granularity }" closes a bucket every { $span } s, and a typical { $parent } adds { $growth } { $child } a day: { $count } measurement(s) a bucket, each bucket paying its control block
sparse-time-series-buckets-fix = Choose a coarser granularity (minutes, hours) so a bucket spans enough measurements of one series.

## Model problems
## A model's validation problems (docs/problems.md): `problem-<code>`, one per code the
## validator reports, with the values the code carries. The English is the problem's
## `message`, byte for byte.

problem-place-path = { $path }: { $message }
problem-place-line = line { $line }, column { $column }: { $message }
problem-kind-null = null
problem-kind-boolean = a boolean
problem-kind-number = a number
problem-kind-string = a string
problem-kind-array = an array
problem-kind-object = an object
problem-alternative = { $name }
problem-alternatives = { $rest } or { $last }
problem-json-syntax = { $detail }
problem-json-too-deep = { $detail }: a model may nest at most 128 levels of JSON (objects and arrays)
problem-json-number-out-of-range = { $detail }: numbers must be finite doubles (at most about 1.8e308)
problem-json-shape = { $detail }
problem-expected-object = expected an object, found { $found }
problem-expected-string = expected a string, found { $found }
problem-expected-array = expected an array, found { $found }
problem-expected-boolean = expected true or false, found { $found }
problem-expected-number = expected a number, found { $found }
problem-expected-whole-number = expected a whole number ≥ { $min }, found { $found }
problem-expected-date = expected a date YYYY-MM-DD, found "{ $value }"
problem-expected-tip-number = expected a tip number, found { $found }
problem-expected-design-name = expected a design name, found { $found }
problem-expected-shard-key = expected a shard key object, found { $found }
problem-expected-fields-object = expected an object of fields, found { $found }
problem-expected-distribution = expected a distribution object, found { $found }
problem-expected-strategy-object = expected a strategy object, found { $found }
problem-expected-pattern-object = expected a pattern object, found { $found }
problem-expected-step-object = expected a step object, found { $found }
problem-expected-entity-names = expected an array of entity names, found { $found }
problem-expected-entity-names-plain = expected an array of entity names
problem-expected-field-names = expected an array of field names, found { $found }
problem-expected-field-names-plain = expected an array of field names
problem-expected-field-name = expected a field name, found { $found }
problem-expected-field-name-plain = expected a field name
problem-expected-entity-field = expected a field of entity "{ $entity }"
problem-unknown-key = unknown key "{ $key }"; expected one of: { $expected }
problem-missing-key = missing required key "{ $key }"
problem-nan = NaN is not a number a model can use
problem-not-finite = expected a finite number
problem-negative = must not be negative (found { $value })
problem-below-minimum = must be at least { $min } (found { $value })
problem-too-large = must be at most { $max } (found { $value }): far beyond any real data
problem-empty = must not be empty
problem-sample-scale-range = must be in (0, 1] (found { $value })
problem-sample-too-large = must be at most { $max } (found { $value }): it is the size of the sample generated in memory, not of the full data
problem-ram-range = must be more than 0 and at most 1,000,000 GiB (found { $value })
problem-too-many-entities = at most { $max } entities (found { $count }): each is a collection of its own
problem-too-many-relationships = at most { $max } relationships (found { $count })
problem-too-many-fields = at most { $max } fields (found { $count })
problem-too-many-shards = must be at most { $max } (found { $value }): Squillion reports every shard's share
problem-too-many-slots = must be at most { $max } (found { $value }): every slot is a field in every document
problem-duplicate-entity = duplicate entity "{ $name }"
problem-duplicate-relationship = duplicate relationship "{ $name }"
problem-duplicate-pattern = two patterns for the same field
problem-unknown-entity = unknown entity "{ $name }"
problem-unknown-relationship = unknown relationship "{ $name }"
problem-no-such-field = entity "{ $entity }" has no field "{ $field }"
problem-no-copy-field = entity "{ $entity }" has no field { $field }
problem-bad-key-type = a reference key is a field of type int, long, double, decimal, string or objectId ("{ $field }" is not)
problem-map-key-not-string = field "{ $field }" of entity "{ $entity }" is not a string: only strings can name the entries of a map
problem-empty-field-name = a field name must not be empty
problem-bad-field-name = field names must not start with $ or contain . or NUL
problem-unknown-bson-type = unknown BSON type "{ $type }"; expected one of: { $expected }
problem-unknown-kind = unknown kind "{ $kind }"; expected one of: { $expected }
problem-enum-needs-values = kind "enum" needs a non-empty "values" list
problem-probability-range = a probability is between 0 and 1 (found { $value })
problem-min-over-max = min ({ $min }) is greater than max ({ $max })
problem-p99-over-max = p99 ({ $p99 }) is greater than max ({ $max })
problem-typical-over-p99 = typical ({ $typical }) is greater than p99 ({ $p99 })
problem-min-over-typical = min ({ $min }) is greater than typical ({ $typical })
problem-typical-not-positive = typical must be greater than 0 for a heavy-tailed shape
problem-no-length = type "{ $type }" has no length
problem-array-needs-items = an array needs "items": the element type
problem-nested-arrays = arrays of arrays are not supported; use an array of objects
problem-array-needs-count = an array needs "count": a distribution of its length
problem-count-on-non-array = only arrays have a count
problem-object-needs-fields = an object needs "fields"
problem-fields-on-non-object = only objects (and arrays of objects) have fields
problem-missing-shape = missing required key "shape" ({ $expected })
problem-unknown-shape = unknown shape "{ $shape }"; expected { $expected }
problem-parents-per-child-one-to-many = parents_per_child needs many_to_many: true (a child of a one-to-many relationship has exactly one parent)
problem-empty-shard-key = a shard key needs at least one field
problem-shard-key-value = a shard key field is 1 or "hashed"
problem-not-offered-design = "{ $name }" is not one of the offered designs
problem-design-label-too-long = at most { $max } characters (a design button's label)
problem-lesson-multiline = the lesson is one line
problem-custom-design-named = "{ $name }" is a named design; choose another name
problem-custom-design-reserved = "{ $name }" names the model's own design (the page's Custom); choose another name
problem-no-designs = a preset offers at least one design
problem-unknown-design = unknown design "{ $name }"; expected { $expected }
problem-unknown-joins = unknown joins "{ $joins }"; expected { $expected }
problem-unknown-strategy = unknown strategy "{ $strategy }"; expected one of: { $expected }
problem-feed-strategy-needs-feed = "{ $strategy }" needs a relationship with a "feed" entity
problem-feed-needs-feed-strategy = relationship "{ $relationship }" is a feed: use fan_out_on_read, fan_out_on_write or bucketed_fan_out
problem-tree-needs-tree-strategy = relationship "{ $relationship }" is a tree (tree steps name it): use parent_references, child_references, array_of_ancestors, materialized_paths or nested_sets
problem-single-collection-one-to-many = "{ $strategy }" keeps each child in its one parent's collection: relationship "{ $relationship }" must be one-to-many between two different entities
problem-tree-strategy-not-tree = "{ $strategy }" lays out a tree: relationship "{ $relationship }" must be one-to-many from an entity to itself
problem-unknown-granularity = unknown granularity "{ $granularity }"; expected { $expected }
problem-time-series-one-to-many = "time_series" needs a one-to-many between two entities; "{ $relationship }" is not
problem-time-series-needs-date = "time_series" needs a date field in "{ $entity }" (the timeField)
problem-read-by-itself = "{ $strategy }" keeps "{ $entity }" inside other documents, with no collection of its own, but the unit "{ $unit }" reads it by itself ({ $op }): choose a strategy that keeps it in its own collection (reference_in_child, embed_subset, extended_reference, …)
problem-time-series-not-measurement = "time_series" needs "{ $entity }" to be a measurement: a date field, in no relationship but "{ $relationship }", and no workload step that reads, updates, deletes or moves one by itself
problem-time-series-sparse = "time_series" needs a series that fills a bucket: a typical "{ $parent }" adds { $growth } "{ $child }" a day, fewer than 10 in the 30 days of the coarsest granularity
problem-unknown-pattern = unknown pattern "{ $pattern }"; expected { $expected }
problem-unknown-form = form is { $expected }
problem-computed-other-parent = relationship "{ $relationship }" has parent "{ $parent }"
problem-no-file-field = entity "{ $entity }" has no top-level binData or string field "{ $field }": only such a field can be stored as a file
problem-archive-needs-date = entity "{ $entity }" has no top-level date field "{ $field }": an archive moves documents by their age
problem-read-share-range = is a share of the reads, 0 to 1 (found { $value })
problem-schema-version-field-taken = entity "{ $entity }" already has a field "{ $field }": the schema version is a field of its own
problem-measurements-needs-date = entity "{ $entity }" has no top-level date field: the measurements' time comes from it
problem-measurements-name-taken = "{ $name }" is already an entity: the pattern makes an entity of that name
problem-measurements-same-names = must differ from "meta": the series and its measurements are two entities
problem-measurements-granularity = granularity is { $expected }
problem-migration-same-version = a migration goes to another version than { $version }
problem-document-share-range = is a share of the documents, 0 to 1 (found { $value })
problem-polymorphic-too-few = a polymorphic collection holds at least two distinct entities
problem-polymorphic-twice = entity "{ $entity }" is in two polymorphic collections
problem-polymorphic-name-taken = collection "{ $collection }" is the name of an entity it does not hold
problem-case-insensitive-by-id = a case-insensitive read needs "by": a string field (an _id has no case)
problem-unknown-op = unknown op "{ $op }"; expected { $expected }
problem-child-of-other-parent = relationship "{ $relationship }" has parent "{ $parent }", not "{ $entity }"
problem-sort-order = order is 1 or -1
problem-reassign-one-to-many = reassign moves a child to another parent: relationship "{ $relationship }" must be one-to-many (not many-to-many, not a feed)
problem-tree-step-not-tree = { $op } reads or changes a tree: relationship "{ $relationship }" must be one-to-many from an entity to itself
problem-not-a-feed = relationship "{ $relationship }" has no "feed" entity
problem-unknown-copies = copies is { $expected }
problem-unknown-paging = paging is { $expected }
problem-none = The model is valid.
problem-show-line = Show line { $line }
problem-and-more = and { $count } more
## Advisor

advisor-step-screen = screening a space of { $count } designs
advisor-step-engine = running on the engine: { $design }
advisor-step-explain = explaining the recommendation
advisor-why-chosen = { $chosen }.
advisor-why-infeasible = “{ $choice }” is infeasible: { $why }.
advisor-why-runner-up = The next best is “{ $choice }”: { $costs }.
advisor-why-no-alternative = No feasible alternative.
advisor-why-growth = It would stay under the limit for the whole horizon below { $below } a day on the largest parent (today { $today }).
advisor-choice-flip = On the engine it costs { $costs }, and would win { $when }.
advisor-choice-flip-never = On the engine it costs { $costs }, and loses at every read/write ratio and storage weight.
advisor-choice-flip-cheaper = On the engine it costs { $costs }: less than this choice by the cost model.
advisor-choice-flip-costs = { $work } of work and { $storage } on disk{ $decides }
advisor-choice-flip-decides-term = , mostly { $term }
advisor-choice-flip-decides-storage = {" "}(the bytes on disk decide)
advisor-choice-flip-below = below { $at } reads per write (today { $today })
advisor-choice-flip-above = above { $at } reads per write (today { $today })
advisor-choice-flip-storage = with the storage weight × { $factor }
advisor-choice-flip-or = , or {""}
advisor-choice-flip-same = On the engine it costs exactly the same: this choice changes no measured figure.
advisor-choice-flip-infeasible = On the engine it breaks a hard limit, so it cannot be picked.
advisor-choice-flip-refused = On the engine one of its commands is refused, so it cannot be picked.
advisor-choice-flip-no-answer = On the engine it does not give every step's logical answer, so it cannot be picked.
advisor-choice-flip-failed = The engine could not evaluate it.
advisor-costs = { $reads } read round trips/s, { $writes } docs and { $keys } index keys written/s, { $data } data and { $indexes } index bytes (screen score { $score })
advisor-breach-past = { $collection }.{ $path } breaks 16 MiB at { $count } elements; the largest parent already has { $largest }
advisor-breach-horizon = { $collection }.{ $path } breaks 16 MiB at { $count } elements; the largest parent ({ $largest } now) reaches it on { $date } (in { $days } days)
advisor-breach-largest = the largest { $collection } document the model allows would be over the 16 MiB limit
advisor-breach-depth = { $collection } documents nest more than 100 levels deep
advisor-breach-indexes = { $collection } has more than 64 indexes
advisor-breach-open-keys = { $collection }.{ $path } is keyed by values that keep coming: one index per key, a createIndex for every new one, past 64 indexes in time
advisor-breach-other = { $collection }: { $code }
advisor-method-exhaustive = exhaustive
advisor-method-local = local
advisor-report-model = model
advisor-report-search = { $model }: { $method } search of { $space } designs: { $explored } screened ({ $feasible } feasible, { $infeasible } infeasible within { $days } days, { $invalid } not laid out)
advisor-report-weights = weights: reads { $reads }, writes { $writes }, storage { $storage }
advisor-report-recommended = recommended: { $label }
advisor-report-design = design: { $design }
advisor-report-none = no feasible design
advisor-report-why = why:
advisor-report-top = top by the screen score (the engine then decides by cost):
advisor-report-front = Pareto front (read cost, write cost, storage):
advisor-report-agree = screen and engine agree within tolerance on every verified design
advisor-report-disagree = screen and engine disagree:
advisor-report-disagreement = { $design }: { $figure } screened { $screened }, engine { $engine } (allowed { $low }–{ $high }) { $note }
advisor-figures = reads { $reads }/s, writes { $writes } docs + { $keys } index keys/s, storage { $storage } + { $indexes } indexes (screen score { $score })
advisor-figures-engine = ; engine: reads { $reads }/s, writes { $writes } docs + { $keys } index keys/s, indexes { $indexes }, docs examined { $examined }/s{ $infeasible }
advisor-figures-infeasible = , infeasible: { $limits }
advisor-figures-error = ; engine error: { $error }
advisor-cost = cost: { $work } of work ({ $reads } reading, { $writes } writing; { $share } of it { $term }), storage { $storage }
advisor-term-round-trips = round trips
advisor-term-keys-examined = index keys examined
advisor-term-docs-examined = documents examined
advisor-term-bytes-returned = bytes returned
advisor-term-docs-written = documents written
advisor-term-bytes-written = bytes written
advisor-term-index-keys-written = index keys written
advisor-term-docs-from-disk = documents read from disk (the working set past the cache)
advisor-runner-up-reads = against the runner-up ({ $design }): its reads cost more{ $term }
advisor-runner-up-writes = against the runner-up ({ $design }): its writes cost more{ $term }
advisor-runner-up-storage = against the runner-up ({ $design }): it keeps more bytes on disk
advisor-runner-up-tie = against the runner-up ({ $design }): a tie
advisor-report-flips = where the pick flips (against each other verified design):
advisor-flip = { $design } (decision score { $delta } against the pick): { $when }
advisor-flip-ratio = ties at { $at } reads per write (today { $today })
advisor-flip-factor = ties with every read rate × { $factor }
advisor-flip-storage = ties with the storage weight × { $factor }
advisor-flip-or = ; {""}
advisor-flip-never = loses at every read/write ratio and storage weight
advisor-words-design = { $choices }
advisor-words-only-design = the only design
advisor-words-no-pattern = no field pattern
advisor-words-embed = keep each { $parent }'s { $rel } inside the { $parent } document
advisor-words-embed-subset = keep the newest { $n } { $rel } in the { $parent } document, every { $child } in its own collection too
advisor-words-extended-reference = keep in each { $parent } document a sub-document with the id of each of its { $rel }
advisor-words-extended-reference-copy = keep in each { $parent } document the id and { $fields } of each of its { $rel }
advisor-words-reference-in-parent = keep in each { $parent } document the ids of its { $rel }
advisor-words-reference-in-child = store each { $child } with a reference to its { $parent }
advisor-words-reference-in-child-copy = store each { $child } with a reference to its { $parent } and a copy of its { $fields }
advisor-words-reference-in-child-many = store each { $child } with the ids of the { $parent } documents whose { $rel } it is in
advisor-words-reference-in-child-many-copy = store each { $child } with the ids and { $fields } of the { $parent } documents whose { $rel } it is in
advisor-words-two-way = keep references both ways: each { $parent } document the ids of its { $rel }, each { $child } its { $parent }'s id
advisor-words-link-collection = link each { $parent } to its { $rel } through a collection of pairs, one document per link
advisor-words-bucket = group each { $parent }'s { $rel } in buckets of { $n }
advisor-words-continuation = keep up to { $n } { $child } ids in the { $parent } document and the rest in continuation documents
advisor-words-fan-out-on-read = store each { $item } once, with the ids of the { $child } documents whose feed it is in
advisor-words-fan-out-on-write = copy each { $item } into the feed of every { $child } it goes to, one document per copy
advisor-words-bucketed-fan-out = copy each { $item } into the feed of every { $child } it goes to, in buckets of { $n } per feed
advisor-words-time-series = store { $rel } as measurements in a time-series collection, each bucket spanning { $span }
advisor-words-span-hour = an hour
advisor-words-span-day = a day
advisor-words-span-month = 30 days
advisor-words-parent-references = store each { $child } with its parent's id
advisor-words-child-references = store each { $parent } with the ids of its { $rel }
advisor-words-array-of-ancestors = store each { $child } with the ids of all its ancestors and of its parent
advisor-words-materialized-paths = store each { $child } with the path of its ancestors as one indexed string
advisor-words-nested-sets = store each { $child } with the left and right numbers of a depth-first walk of the tree
advisor-words-single-collection = store { $rel } in the { $parent } collection, each { $child } under its { $parent }'s key
advisor-words-joins-application = join in the application, one query per collection
advisor-words-joins-lookup = join on the server with $lookup
advisor-words-attribute-keyed = keep each { $entity }'s { $field } as one sub-document keyed by { $key }
advisor-words-attribute-key-value = keep each { $entity }'s { $field } as an array of { $key } and { $value } pairs
advisor-words-attribute-flattened = store each of a { $entity }'s { $field } as a document of its own, the { $entity }'s fields repeated
advisor-words-computed-count = store on each { $entity } the count of its { $rel } in { $field }, updated as each is added
advisor-words-computed-sum = store on each { $entity } the sum of { $sum } over its { $rel } in { $field }, updated as each is added
advisor-words-no-computed = compute each { $entity }'s { $field } when it is read
advisor-words-preallocated = create each { $entity } with its { $n } { $field } counters at zero
advisor-words-no-preallocated = add each { $entity }'s { $field } counters as they are first written
advisor-words-gridfs = store each { $entity }'s { $field } in GridFS
advisor-words-object-storage = store each { $entity }'s { $field } in object storage, the document keeping its URL
advisor-words-inline = keep each { $entity }'s { $field } inside its document
advisor-words-approximate = write each { $entity }'s { $field } once every { $n } events
advisor-words-no-approximate = write each { $entity }'s { $field } on every event
advisor-words-archive = move { $entity } documents older than { $n } days to an archive collection
advisor-words-no-archive = keep every { $entity } in one collection, however old
advisor-words-document-versioning = keep every earlier version of each { $entity } in a history collection
advisor-words-no-document-versioning = keep only the current version of each { $entity }
advisor-words-schema-versioning = migrate { $entity } documents from version { $from } to { $to }, each with its version in { $field }
advisor-words-no-schema-versioning = keep every { $entity } document in one shape
advisor-words-case-insensitive-index = index each { $entity }'s { $field } with a case-insensitive collation
advisor-words-no-case-insensitive-index = find a { $entity } by { $field } case-insensitively, without an index for it
advisor-words-measurements = record each { $entity } event as a measurement in a time-series collection, by { $field }
advisor-words-no-measurements = update the { $entity } counters in place
advisor-words-map = lay each { $entity }'s { $field } out as one object keyed by { $key }
advisor-words-no-map = keep each { $entity }'s { $field } as an array of sub-documents
advisor-yardstick = It scores worse than the Normalized design (the yardstick, score 0) because { $why }.
advisor-yardstick-infeasible = the Normalized design is infeasible: { $why }
advisor-yardstick-engine-infeasible = on the engine the Normalized design is infeasible: { $limits }
advisor-yardstick-no-answer = the Normalized design does not give the logical answer of { $count } step(s) on the engine
advisor-yardstick-refused = the engine refused { $count } command(s) of the Normalized design
advisor-yardstick-failed = the engine could not evaluate the Normalized design: { $error }
advisor-yardstick-not-laid-out = the Normalized design cannot be laid out
advisor-yardstick-costlier = the score only counts round trips, documents and bytes, while the engine's figures priced by the cost model with these weights favour it: { $work } of work and { $storage } stored, against the Normalized design's { $ywork } and { $ystorage }

## Verdict of a comparison (src/advise/verdict.rs): the design that wins by the advisor's cost
## model and why each other loses. Work is µs of work per second of workload.
verdict-wins = { $winner } wins: { $work } of work per second of workload against { $other_work } for { $other }; { $mix }.
verdict-wins-storage = { $winner } wins on storage: { $storage } on disk with the indexes against { $other_storage } for { $other }, with { $work } of work per second of workload against { $other_work }; { $mix }.
verdict-wins-tied = { $winner } wins, tied with { $other }: { $work } of work per second of workload each; { $mix }.
verdict-wins-alone = { $winner } wins as the only sound design: { $work } of work per second of workload; { $mix }.
verdict-no-workload = Nothing to decide: the workload has no operations, so only the sizes are compared.
verdict-none-sound = No design can win: each is infeasible or failed on the engine.
verdict-mix-reads = { $n } reads per write
verdict-mix-writes = { $n } writes per read
verdict-mix-reads-only = the workload only reads
verdict-mix-writes-only = the workload only writes
verdict-line-infeasible = { $design }: infeasible ({ $codes }: mongod would refuse it).
verdict-line-command-failed = { $design }: the engine refused { $count } of its commands.
verdict-line-not-evaluated = { $design }: not evaluated ({ $why }).
verdict-line-reads = { $design }: slower reads{ $factor } ({ $work } against { $winner_work } per second of workload{ $term }).
verdict-line-writes = { $design }: more write work{ $factor } ({ $work } against { $winner_work } per second of workload{ $term }).
verdict-line-storage = { $design }: more storage{ $factor } ({ $storage } against { $winner_storage } on disk with the indexes).
verdict-line-ties = { $design }: ties ({ $work } of work per second of workload, the same score), listed after the winner.
verdict-factor = , { $factor }
verdict-mostly = , mostly { $term }
verdict-empty = {""}
verdict-term-round-trips = round trips
verdict-term-keys-examined = index keys examined
verdict-term-docs-examined = documents examined
verdict-term-bytes-returned = bytes returned
verdict-term-docs-written = documents written
verdict-term-bytes-written = bytes written
verdict-term-index-keys-written = index keys written
verdict-term-docs-from-disk = documents read from disk

## CLI report

cli-full = {" "}(full)
cli-estimate = {" "}(estimate)
cli-design = Design: { $design } (seed { $seed }, sample ≤ { $max } documents per entity, fan-out writes capped at { $cap })
cli-figures = Figures: plain = measured on the sample; (full) = full-scale arithmetic; ≈ = estimate.
cli-collections = Collections
cli-collection = { $name }: { $count } documents ({ $sampled } sampled), { $data } data, { $indexes } ≈{ $index_bytes } (estimate)
cli-index-one = { $count } index
cli-index-many = { $count } indexes
cli-shape = { $label }: p50 { $p50 }, p99 { $p99 }, largest expected { $largest }{ $largest_estimate }, max { $max }{ $estimate } (the bound: every field at its maximum)
cli-shape-at-bound = { $label }: p50 { $p50 }, p99 { $p99 }, largest expected { $largest }{ $largest_estimate }, which is the bound (every field at its maximum)
cli-array-break = { $field } breaks 16 MiB at { $count } elements (largest has { $largest })
cli-index = index { $name } { $keys }
cli-index-partial = index { $name } { $keys } partial { $partial }
cli-operations = Operations (typical subject; largest in brackets)
cli-operation = { $unit } — { $rate }/s: { $queries } [{ $largest_queries }] ({ $lookups } $lookup), examined { $examined } docs [{ $largest_examined }], { $keys } keys [{ $largest_keys }], returned { $returned } docs [{ $largest_returned }], { $returned_bytes } [{ $largest_returned_bytes }], written { $written } docs [{ $largest_written }], { $written_bytes } [{ $largest_written_bytes }], shards { $shards } [{ $largest_shards }]
cli-query-one = { $count } query
cli-query-many = { $count } queries
cli-not-sent = // not sent: { $mongosh }  // { $note }; { $why }
cli-command = { $mongosh }  // { $note }; plan { $plan }{ $no_index }; shards { $touched }/{ $shards } { $routing }{ $fan_out }{ $error }
cli-no-supporting-index = {" "}(no supporting index)
cli-fan-out = ; fan-out { $full } at full scale, { $written } written{ $capped }
cli-capped = {" "}(capped at { $cap })
cli-command-error = ; ERROR { $error }
cli-largest-error = { $unit } (largest subject): { $mongosh } — ERROR { $error }
cli-workload = Workload per second: { $round_trips } round trips, { $lookups } $lookups, { $examined } docs examined, { $written } docs written, { $bytes } written
cli-sharding = Sharding of { $collection } by { $key }{ $hashed } over { $shards } shards (estimate)
cli-hashed = {" "}(hashed)
cli-shard = shard { $shard }: { $documents } documents, { $bytes }
cli-shard-balance = largest shard { $imbalance }× an even share; chunks { $chunks }; jumbo chunks { $jumbo }
cli-shard-key-monotonic = shard key: cardinality { $cardinality } ({ $sample } in the sample); most common value { $common } ({ $share }% of the sample, { $documents } documents); monotonic: { $reason }
cli-shard-key-not-monotonic = shard key: cardinality { $cardinality } ({ $sample } in the sample); most common value { $common } ({ $share }% of the sample, { $documents } documents); not monotonic: { $reason }
cli-spread-reads = reads: { $rate }/s, { $single }% one shard, { $multi }% several shards, { $scatter }% scatter-gather
cli-spread-writes = writes: { $rate }/s, { $single }% one shard, { $multi }% several shards, { $scatter }% scatter-gather
cli-storage = Storage (estimate: snappy on 32 KiB blocks of sample BSON; time-series buckets column-compressed, then zstd)
cli-storage-collection = { $collection }: { $data } data, ≈{ $disk } on disk (ratio { $ratio }), ≈{ $indexes } indexes, ≈{ $hot } hot in an hour
cli-storage-total-fits = total: { $data } data, ≈{ $disk } on disk, ≈{ $indexes } indexes; working set ≈{ $working_set } (≈{ $per_shard } per shard over { $shards }) vs WiredTiger cache { $cache } of { $ram } RAM: fits
cli-storage-total-exceeds = total: { $data } data, ≈{ $disk } on disk, ≈{ $indexes } indexes; working set ≈{ $working_set } (≈{ $per_shard } per shard over { $shards }) vs WiredTiger cache { $cache } of { $ram } RAM: does NOT fit
cli-compare-metric = metric (lower is better)
cli-compare-warnings = warnings (errors)
cli-compare-feasible = feasible
cli-compare-no = infeasible
cli-compare-yes = yes
cli-compare-footnote = {"*"} best per metric among the feasible designs (ties all marked). Per-second figures use the typical subject.
cli-compare-infeasible = { $design } is infeasible: { $codes } (error-severity warnings: mongod would refuse it); never marked best.

## Diagrams (src/diagram/drawing.rs, `squillion diagram`): the words the boxes and lines say

diagram-collection = collection
diagram-gridfs-files = GridFS files
diagram-gridfs-chunks = GridFS chunks
diagram-time-series = time-series buckets
diagram-embedded = embedded
diagram-entity = entity
diagram-entity-count = { $count } at full scale
diagram-shape = — { $label } documents —
diagram-figures = { $documents } documents, p99 { $p99 }, largest { $largest }
diagram-counts = p50 { $p50 } · p99 { $p99 } · max { $max }
diagram-range = { $min }..{ $max } (p50 { $p50 }, p99 { $p99 })
diagram-copy-of = copy of { $source }
diagram-unbounded = unbounded
diagram-over-limit = can pass 16 MiB: { $shape }
diagram-index = index { $keys }
diagram-unique = unique
diagram-multikey = multikey
diagram-partial = partial
diagram-many-to-many = many-to-many
diagram-growth = +{ $typical }/day (largest +{ $largest }/day)
cli-diagram-written = wrote { $path }
diagram-added-since = ✚ not in { $design }
diagram-changed-since = ± changed from { $design }
cli-diagram-changes = since { $design }: not there: { $added }; changed: { $changed }; gone: { $gone }

## Infer summary

infer-empty = {""}
infer-assumed-reference = { $resolved } of { $values } values are _ids of "{ $target }"{ $sampled }: a reference ({ $where }), not a field
infer-assumed-reference-key = { $resolved } of { $values } values are values of the unique key { $key } of "{ $target }" ({ $unique }){ $sampled }: a reference ({ $where }), not a field
infer-unique-by-index = a unique index
infer-unique-in-data = every value once in the data
infer-assumed-feed = with { $other }, a fan-out-on-read feed "{ $relationship }": each document holds one reference to its author ({ $author }) and an array of recipients ({ $recipients }), both _ids of "{ $target }", so one feed relationship, not two
infer-assumed-sampled = {" "}(counted on a sample of the values)
infer-in-the-parent = in the parent
infer-in-the-child = in the child
infer-assumed-moved-out = array of sub-documents moved out: entity "{ $child }", relationship "{ $relationship }" (embedded in the model's design)
infer-assumed-map = an object keyed by data ({ $keys } distinct keys, the median one in { $share }% of the objects, values of one type), a map: moved out as entity "{ $child }", one per entry, its key in the field { $key }, relationship "{ $relationship }" (laid out as a map in the model's design: the map pattern; without it, an array)
infer-assumed-without-map = { $count } of { $of } without the object (missing, null or another type) counted as 0 entries
infer-assumed-without-array = { $count } of { $of } without the array (missing, null or another type) counted as 0 children; embedded, they are written as an empty array
infer-assumed-not-sub-documents = { $count } of { $of } elements not sub-documents: counted as children, their values not kept
infer-assumed-numeric-id = a numeric _id is unique: written as a sequence, not the range seen
infer-assumed-enum-even = enum values drawn evenly by the model (their observed shares are in the report)
infer-assumed-empty-objects = only empty objects seen: written as null (a model object needs fields)
infer-assumed-empty-arrays = only empty arrays seen: elements written as null
infer-assumed-nested-arrays = arrays of arrays are not supported: elements written as null
infer-assumed-symbol = symbol (deprecated) written as string
infer-assumed-code-with-scope = javascriptWithScope written as javascript (its scope not counted)
infer-assumed-db-pointer = dbPointer written as objectId (its namespace not counted)
infer-assumed-undefined = undefined written as null
infer-documents-one = { $count } document
infer-documents-many = { $count } documents
infer-lines-one = { $count } line
infer-lines-many = { $count } lines
infer-source = { $source } → { $collection }: { $documents } read, { $skipped } skipped
infer-entity = { $name }: { $documents } documents read, count { $count }, { $fields } field paths
infer-how-embed = embedded array { $field }
infer-polymorphic = polymorphic: documents of several kinds told apart by { $field }: { $variants }; { $layout }
infer-polymorphic-split = laid out as one entity per kind ({ $entities }) in this one collection, by the polymorphic pattern
infer-polymorphic-kept-referenced = kept as one entity: relationship { $relationship } points at its documents whatever their kind
infer-polymorphic-kept-shared = kept as one entity: { $field } (relationship { $relationship }) is in documents of several kinds
infer-polymorphic-kept-pattern = kept as one entity: the { $pattern } pattern applies to all of it
infer-how-map = map { $field } (an object keyed by data, laid out as a map)
infer-how-ids-in-parent = array of ids { $field } in the parent
infer-how-link = link collection { $field }
infer-how-feed = fan-out-on-read feed { $field } (each document holds one author reference and an array of recipients, both to the same collection)
infer-how-reference = reference { $field } in the child
infer-relationship = { $name }: { $parent } → { $child } ({ $how }{ $many }), count { $count }, children per parent min { $min } median { $median } p99 { $p99 } max { $max }{ $resolved }{ $without }{ $sampled }
infer-many-to-many = , many-to-many
infer-resolved = , { $resolved } of { $values } ids resolved
infer-resolved-key = , { $resolved } of { $values } values resolved through the unique key { $key }
infer-without-array = , { $count } without the array (0 children)
infer-sampled = , figures from a sample of the values
infer-parents-per-child = , parents per child min { $min } median { $median } p99 { $p99 } max { $max }
infer-growth = , growth per day { $typical } typical, { $largest } largest (creation times: { $from }, { $days } days)
infer-field-note = { $entity }.{ $path }: { $note }
infer-unique = {" "}unique
infer-index = { $name } on { $collection } {"{"}{ $keys }{"}"}{ $unique } (reported, not in the model)
infer-skipped-byte = { $source }: byte { $byte }: { $message }
infer-skipped-line = { $source }: line { $line }: { $message }
infer-skipped-statement-unread = { $source }: line { $line }: { $statement }: not read ({ $error })
infer-skipped-statement-other = { $source }: line { $line }: { $statement } (not a table: skipped)
infer-cli-present = present { $share }%
infer-cli-types = types { $shares }
infer-cli-length = length min { $min } median { $median } p99 { $p99 } max { $max }
infer-cli-count = count min { $min } median { $median } p99 { $p99 } max { $max }
infer-cli-assumed = assumed: { $note }
infer-cli-relationship = relationship { $name }: { $parent } → { $child } ({ $how }{ $many }), count { $count }, children per parent min { $min } median { $median } p99 { $p99 } max { $max }{ $parents }{ $without }{ $resolved }{ $sampled }{ $growth }
infer-cli-index = index { $name } on { $collection } {"{"}{ $keys }{"}"}{ $unique } (from { $source }; reported, not in the model)
infer-cli-workload = assumed workload: { $what }, { $rate }/s ({ $why }; not in the data: edit or delete it in the model)
infer-workload-read-by = read { $entity } by { $field }
infer-workload-read-children = read { $entity } with its children
infer-workload-insert = insert { $entity } ({ $relationship })
infer-workload-why-index = the query index { $index } serves
infer-workload-why-parent = the parent read with its children
infer-workload-why-insert = a child added
infer-cli-skipped = { $count } lines skipped
infer-as-is = { $text }
infer-link-attribute-columns = { $table }: { $columns } (a many-to-many relationship carries no fields)
infer-log-source = { $source }{ $gzip }: { $lines } read ({ $formats }), { $operations } logged, { $bad }{ $span }
infer-log-gzip = {" "}(gzipped)
infer-log-span = , from { $first } to { $last }
infer-log-format-text = mongod text log
infer-log-format-json = mongod JSON log
infer-log-format-profile = system.profile documents
infer-log-format-query-stats = $queryStats output
infer-log-ops-one = { $count } operation
infer-log-ops-many = { $count } operations
infer-log-bad-one = { $count } bad line
infer-log-bad-many = { $count } bad lines
infer-log-shapes-one = { $count } shape
infer-log-shapes-many = { $count } shapes
infer-log-totals = { $operations } counted in { $shapes }, over { $seconds } s of log
infer-log-shape = { $shape }: { $operations }, { $rate }/s{ $figures }{ $durations }{ $plans }{ $became }{ $assumed }
infer-log-figures = ; per operation: { $figures }
infer-log-keys-examined = keys examined { $n }
infer-log-docs-examined = documents examined { $n }
infer-log-returned = returned { $n }
infer-log-durations = ; { $min }–{ $max } ms, p50 { $p50 } ms, p95 { $p95 } ms, p99 { $p99 } ms
infer-log-plans = ; plans: { $plans }
infer-log-unit = {" "}→ workload “{ $unit }”
infer-log-not-mapped = {" "}→ not in the workload: { $why }
infer-log-shape-assumed = {" "}(assumed: { $what })
infer-log-refused = “{ $unit }” left out: { $problems }
infer-log-skipped = { $operations } skipped: { $reason } ({ $what })
infer-log-skip-internal = on admin, local or config, the server's own data
infer-log-skip-system = on a system collection
infer-log-skip-cursor = a cursor's next batch or its end, its query counted where it started
infer-log-skip-write-batch = a write command's envelope, its statements counted on their own
infer-log-skip-not-expressible = a command the model has no operation for

## Engine errors

engine-error-bad-value = Bad value
engine-error-failed-to-parse = Failed to parse
engine-error-type-mismatch = Type mismatch
engine-error-path-not-viable = Path not viable
engine-error-conflicting-update-operators = Conflicting update operators
engine-error-immutable-field = Immutable field
engine-error-bson-object-too-large = Document over 16 MiB
engine-error-overflow = Overflow
engine-error-duplicate-key = Duplicate key
engine-error-cannot-index-parallel-arrays = Cannot index parallel arrays
engine-error-invalid-pipeline-operator = Invalid pipeline operator
engine-error-index-not-found = Index not found
engine-error-internal = Internal error
engine-error-other = Server error
engine-error-cli = squillion query: { $lead } ({ $code_name })

## Evaluation steps

eval-step-generate = generating the sample documents
eval-step-insert = inserting { $count } documents and building the indexes
eval-step-measure = measuring the collections
eval-step-run = running “{ $unit }”
eval-step-finish = spreading over shards, estimating storage and warnings

## Form edits
## Why the page's forms refused an edit (`EditError::text`, src/model/edit.rs). The English is
## the error's `Display`, byte for byte; names stay as the model writes them, in “”.

edit-empty-name = a name cannot be empty
edit-name-taken = there is already { $what } named “{ $name }”
edit-not-found = no { $what } named “{ $name }”
edit-invalid = { $action } was refused: { $problems }
edit-would-break-one = { $action } would break 1 reference: { $problems }
edit-would-break = { $action } would break { $count } references: { $problems }
edit-problems-none = no problem
edit-problems-1 = { $first }
edit-problems-2 = { $first }; { $second }
edit-problems-3 = { $first }; { $second }; { $third }
edit-thing-entity = entity
edit-thing-relationship = relationship
edit-thing-field = field
edit-thing-strategy-override = strategy override for a relationship
edit-thing-copied-field = copied field in the strategy
edit-a-entity = an entity
edit-a-relationship = a relationship
edit-a-field = a field
edit-a-strategy-override = a strategy override for a relationship
edit-a-copied-field = a copied field in the strategy
edit-action-rename-entity = Renaming entity “{ $name }”
edit-action-rename-relationship = Renaming relationship “{ $name }”
edit-action-rename-field = Renaming field “{ $name }”
edit-action-delete-entity = Deleting entity “{ $name }”
edit-action-delete-relationship = Deleting relationship “{ $name }”
edit-action-delete-field = Deleting field “{ $name }”
edit-action-use-strategy = Using { $strategy } for “{ $relationship }”
edit-action-reset = Resetting “{ $relationship }” to the base design
edit-action-base = Basing the design on “{ $base }”
edit-action-joins = Joining with “{ $joins }”
edit-action-copy = Copying “{ $field }” for “{ $relationship }”
edit-action-uncopy = No longer copying “{ $field }” for “{ $relationship }”
edit-action-custom-design = Starting the custom design

## Migration (src/migrate, `squillion migrate`, the page's Migrate panel): each step's title,
## the dual writes, why a change is refused, and the report. Names (collections, fields,
## relationships, entities) and strategies stay as the model writes them.

migrate-step-create-index = Create the index { $index } on { $collection } (needed by { $reason })
migrate-step-batch-index = Create the temporary index { $index } on { $collection } for the backfill's batches
migrate-step-move-out = Move { $whence } out into { $collection }, each { $child } with its { $reference } and a new _id{ $why }
migrate-whence-buckets = the buckets in { $buckets }
migrate-whence-embedded = each { $parent }'s embedded { $array }
migrate-why-temporary-collection = {" "}(a collection for the migration only: the next step reads it, the clean-up drops it)
migrate-step-buckets = Write each { $parent }'s { $array } into buckets of { $size } in { $buckets }, oldest first
migrate-step-link = Set { $reference } on each { $child } from { $source }{ $why }
migrate-link-from-array = its { $parent }'s { $array }
migrate-link-from-links = the links in { $collection }
migrate-why-kept-reference = {" "}(kept until the clean-up: the next steps group the children by it)
migrate-step-rebuild = Write into each { $parent }'s { $field } { $what }{ $beside }
migrate-array-ids = the ids of its { $array }
migrate-array-extended = {"{"}_id, { $fields }{"}"} of its { $array }
migrate-array-subset = its first { $k } { $array } embedded
migrate-array-embedded = its { $array } embedded
migrate-beside = {" "}(beside { $array }, which the application still reads)
migrate-step-empty-arrays = Set { $field }: [] on each { $parent } without { $array }
migrate-step-links = Write a link document into { $collection } for each { $child }
migrate-step-copy = Copy { $fields } of its { $parent } into each { $child }
migrate-step-switch = Replace each { $parent }'s { $array } by { $next }
migrate-step-deploy = Deploy the application's reads and writes of { $design } and stop the dual writes
migrate-step-remove = Remove { $fields } from each { $entity }
migrate-step-drop = Drop { $collection } ({ $now })
migrate-now-buckets = its documents now live in the buckets of { $buckets }
migrate-now-parent = its documents now live in their { $parent }
migrate-step-drop-buckets = Drop the buckets { $collection }
migrate-step-drop-links = Drop the link collection { $collection }
migrate-step-drop-index = Drop the index { $index } on { $collection } (the target does not use it)
migrate-step-drop-temporary-index = Drop the temporary index { $index } on { $collection }

migrate-dual-write = { $relationship }: while the backfill runs, keep writing { $child } as { $strategy } does, and { $target }; delete and update both copies; the batch a write falls in must be run again if it ran before the write
migrate-dual-embedded = push each new { $child } into its { $parent }'s `{ $array }` too
migrate-dual-subset = push each new { $child } into its { $parent }'s `{ $array }` too, kept to { $k }
migrate-dual-reference = push each new { $child }'s reference into its { $parent }'s `{ $array }` too
migrate-dual-bucket = push each new { $child } into its { $parent }'s newest bucket in `{ $collection }` too (a new bucket when it is full)
migrate-dual-link = insert a link into `{ $collection }` for each new { $child }
migrate-dual-parent-reference = set `{ $reference }` on each new { $child }
migrate-dual-own-collection = insert each new { $child } into its own collection too, with `{ $reference }`
migrate-dual-own-collection-copies = insert each new { $child } into its own collection too, with `{ $reference }` and the copies { $copies }

migrate-refused = cannot plan { $what }: { $why }
migrate-what-change = the change
migrate-what-field-patterns = the field patterns
migrate-what-collection = { $collection }
migrate-what-relationship = relationship { $relationship } ({ $from } → { $to })
migrate-why-different-model = the two designs describe different entities or relationships; a migration moves one model's data between two of its designs
migrate-why-field-patterns = the designs differ in their field patterns (attributes, computed fields, GridFS, versions, polymorphic collections); only relationship strategies and indexes are migrated
migrate-why-shard-key = its shard key changes; resharding (reshardCollection) is not planned
migrate-why-strategy = moving from or to { $strategy } is not planned yet (planned: embed, embed_subset, extended_reference, reference_in_parent, reference_in_child, two_way, link_collection, bucket)
migrate-why-bucket-size = changing a bucket's size is not planned yet
migrate-why-many-to-many = a many-to-many relationship is not planned yet
migrate-why-self = a relationship of an entity to itself is not planned yet
migrate-why-feed = a feed is not planned yet
migrate-why-business-key = references by a business key (parent_key, child_key) are not planned yet
migrate-why-child-elsewhere = its child { $child } takes part in relationship { $other } too; only a child with no other relationship is moved
migrate-why-parent-embedded = its parent { $parent } is embedded (relationship { $other }) in one of the designs
migrate-why-map = the map pattern is not planned yet
migrate-why-parent-collection = the parent { $parent } must keep one collection of its own in both designs
migrate-over-limit = the target design breaks 16 MiB in { $collection }: { $documents }; the migration would fail there ({ $fix })
migrate-over-documents = { $count } of its { $total } { $shape } documents (the largest, { $bytes } bytes, against { $allowed } allowed)
migrate-over-documents-arrays = { $count } of its { $total } { $shape } documents (the largest, { $bytes } bytes, against { $allowed } allowed); { $arrays }
migrate-over-array = `{ $field }` breaks at { $count } elements and its largest holds { $largest }
migrate-fix-fields = move the largest fields of { $collection } out of the document
migrate-fix-arrays = keep the relationship { $relationships } under embed_subset (the newest children), continuation or bucket instead, or its children in a collection of their own (reference_in_child)

migrate-report-title = Migration of { $model } from { $from } to { $to }
migrate-report-the-model = the model
migrate-report-indexes-only = no relationship changes strategy: only indexes change
migrate-report-dual-writes = Dual writes from the first backfill until the switch:
migrate-report-steps = Steps (full scale; { $batch } parents per batch, { $rate } writes/s):
migrate-report-total = Total: { $cost }
migrate-report-written = Written to { $dir }: plan.json, migrate.js, steps/
migrate-cost = reads { $docs_read } docs ({ $bytes_read }), writes { $docs_written } docs ({ $bytes_written }), { $keys } index keys, { $duration }
migrate-checked = Checked on the engine: { $commands } commands on the source's sample; the result holds the target design's data for all { $parents } parents, with nothing left over.
migrate-check-failed = The check on the engine found differences:
migrate-phase-create = create
migrate-phase-backfill = backfill
migrate-phase-switch = switch
migrate-phase-clean-up = clean-up
