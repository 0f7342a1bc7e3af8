# Squillion 的消息（简体中文）：每条警告及其修复建议。
# Project Fluent 语法；值已格式化（$size 为 "16 MiB"，$count 为 "844,411"），列表已按中文连接
# （"a、b 和 c"），子句（$how_many、$tail、$when）是本文件中的另一条消息，先行渲染。
# 术语见 docs/i18n.md 的术语表；MongoDB 的运算符、代码、集合与字段名保持原样。
# 每个 id 与 locales/en/messages.ftl 一一对应，值的名称相同（tests/suite/catalogues.rs）。

## 共用子句

exact = 精确值
estimate = 估算值
how-many = 在完整规模下 { $about }{ $share } 的 { $shape } 文档（{ $about }{ $documents } 个）超过该值
how-many-because = 在完整规模下 { $about }{ $share } 的 { $shape } 文档（{ $about }{ $documents } 个）超过该值，原因是 { $fields }
break-on = 于 { $date }（{ $days } 天后）
break-beyond = 在 { $years } 年内都不会
nothing = {""}
already-has = {"——"}最大的父文档已有 { $count } 个
reaches-both = ；每天增长 { $growth } 个，最大的父文档{ $largest }达到，典型的父文档{ $typical }达到
reaches-largest = ；每天增长 { $growth } 个，最大的父文档{ $largest }达到
still-growing = ，且仍以每天 { $growth } 个无上限地增长
fix-store-outside = 把 { $fields } 存到文档之外：存入 GridFS（fs.files + fs.chunks，每块 255 KiB，大小不限；gridfs 字段模式），或存入对象存储（S3、GCS、Azure Blob）并在文档中保留引用（URL 或键）；或让值远小于 16 MiB。
fix-cap-arrays = 限制 { $fields } 的长度（内嵌子集、分桶、连续文档），或从子文档自己的集合引用父文档。
fix-move-objects = 把 { $fields } 移到单独的集合并引用它。
fix-cap-array = 限制数组长度（内嵌子集、分桶、连续文档），或从子文档自己的集合引用父文档。
fix-sentences = { $sentences }
basis-sample = 样本实测
basis-full-scale = 完整规模精确值
basis-estimate = 估算值
monotonic-object-id = ObjectId 类型的 _id 以创建时间开头
monotonic-date = 创建日期或时间戳随时间增长
monotonic-sequence = 序号只增不减

## 文档与 16 MiB 上限

largest-expected-figure = 全量 { $count } 个 { $shape } 文档中预计最大的一个
largest-bound-figure = 模型允许的最大 { $shape } 文档（每个字段都取最长、每个数组都装满）

doc-over-limit = { $figure }将达到 { $size }（{ $exactness }），超出 16 MiB 上限 { $over }：mongod 会拒绝它（BSONObjectTooLarge，错误码 10334；更新结果过大为 17419）；{ $how_many }
doc-can-exceed-limit = 模型允许的最大 { $shape } 文档（每个字段都取最长、每个数组都装满）将达到 { $size }，超出 16 MiB 上限 { $over }；但最长的值很少同时出现：{ $how_many }（预计不足一个）
doc-near-limit = { $figure }为 { $size }（{ $exactness }），已接近 16 MiB 上限的 20% 以内（≥ { $near }）
doc-near-limit-fix = 留出余量：在增长的部分达到上限之前限制它或把它移出去。
bloated-document = { $figure }为 { $size }（{ $exactness }），超过 Compass 的文档臃肿阈值 10 MB（{ $threshold }）；{ $how_many }：每次读取和重写都要整体搬运它们
bloated-document-fix = 把很少读取或不断增长的部分移到单独的集合。{ $fix }
array-break-point = { $collection }.{ $field } 在 { $count } 个元素时突破 16 MiB 上限（{ $exactness }，每个元素 { $element }）{ $tail }
array-break-point-fix = 让数组有界：超过阈值后使用连续文档、分桶，或在子文档中引用父文档。
unbounded-array = { $collection }.{ $field } 是无界数组：最多 { $count } 个元素{ $growing }（Compass 会标记 ≥ 250 个对象、id 或字符串的数组）
unbounded-array-fix = 绝不内嵌无界增长：在子文档中引用父文档、分桶，或只保留最新的 k 个。
unbounded-declared-array-fix = 限制数组长度，或把元素移到单独的集合。
depth-over-limit = 文档嵌套了 { $depth } 层，超过文档规定的 100 层上限
depth-over-limit-fix = 扁平化结构，或引用深层的部分。

## 索引与集合

index-limit = { $count } 个索引：一个集合最多只能有 64 个
index-limit-fix = 使用 {"{"}k, v{"}"} 数组加一个多键索引，而不是每个键一个索引。
too-many-indexes = { $count } 个索引，超过 Compass 的阈值 10 个：每次写入都要更新全部索引
too-many-indexes-fix = 合并前缀相同的索引；对按键建立的索引使用属性模式。
too-many-collections = { $count } 个集合，超过 Compass 的阈值 10,000 个
too-many-collections-fix = 把形状相同的文档放进一个集合，并用一个字段区分它们。
unused-index = 索引 { $index } 没有被工作负载中的任何命令扫描（没有获胜计划或 $lookup 使用它）；{ $collection } 中每秒写入的 { $writes } 个文档都要维护它（估算值）
unused-indexes = { $count } 个索引没有被工作负载中的任何命令扫描（没有获胜计划或 $lookup 使用它们）：{ $indexes }；在完整规模下合计 ≈{ $bytes }，每秒写入 ≈{ $keys } 个索引键来维护它们（{ $collection } 中每秒写入 { $writes } 个文档；估算值）
unused-index-item = { $index }（≈{ $bytes }，每秒写入 ≈{ $keys } 个键）
unused-index-more = { $listed } 等另外 { $more } 个
unused-index-fix = 删除没有查询需要的索引（db.{ $collection }.dropIndex(name)）；可先隐藏索引（db.{ $collection }.hideIndex(name)），看工作负载之外是否有操作变慢。

## 字段模式

mmapv1-preallocation = { $field } 预先分配了 { $slots } 个计数器。预分配（以及填充、usePowerOf2Sizes）在旧的 MMAPv1 引擎上有效，因为增长的文档必须在磁盘上移动；WiredTiger 每次更新都写入整个文档的新版本，所以预先写入的零不会带来原地增长
mmapv1-preallocation-fix = 只有在预先填充的形状能让读取更简单时才保留它；否则让 $inc 在首次使用时创建计数器。
keyed-attributes = { $field } 是以属性为键的子文档：按任一属性查询都需要每个键一个索引（{ $keys } 个键），新增一个键就要新增一个索引
keyed-attributes-fix = 使用 {"{"}k, v{"}"} 数组，并在 {"{"}k: 1, v: 1{"}"} 上建一个多键索引。
approximate-counter = { $field } 每 { $every } 次递增才写一次，每次加 { $every }：一个文档至多有 { $unrecorded } 次递增尚未计入；每个文档每天 { $per_day } 次递增，误差至多为一天计数的 { $error }%
approximate-counter-fix = 只在无人需要精确计数的地方（浏览量、读数、点赞）接受这个误差；涉及金额或限额的计数器应保持精确。
approximation-too-coarse = { $field } 每 { $every } 次递增才写一次，但一个文档每天只有 { $per_day } 次递增：大多数文档的计数器落后超过一天的量，甚至从未被写入
approximation-too-coarse-fix = 把写入间隔的递增次数降到不超过读者关心的时间段内一个文档的递增次数，或改为精确计数。
archive-split = { $collection } 保留最近 { $days } 天（{ $live } 个文档），{ $archive } 保存更早的 { $old } 个；移动它们每秒需要 { $per_sec } 次插入和删除，读取旧数据多 1 次查询
archive-split-fix = 在非高峰期按计划批量移动（先批量插入归档集合，再按日期批量删除）；如果归档的索引不必留在缓存中，就把归档放在更便宜的存储或另一个集群上。
archive-empty = 按这个增长速度，没有 { $entity } 早于 { $days } 天：归档集合一直是空的
archive-empty-fix = 把归档的天数调到数据的年龄以下，或去掉归档。
history-growth = { $collection } 每天增加 { $docs } 个文档（{ $bytes }）：{ $entity } 的每次更新都保留其上一个版本
history-growth-fix = 让旧版本过期（在历史文档的日期上建生存时间索引），或只保留审计需要的字段。

## 副本、查询与读取

live-copy-amplification = { $path } 实时复制 { $entity }.{ $source }：每秒 { $writes } 次更新各要重写 ≈{ $per_write } 个副本（每秒写入 { $copy_writes } 个文档），只为节省每秒 { $reads } 次读取（读写比 { $ratio }）
live-copy-amplification-run = “{ $unit }”（每秒 { $rate } 次）每次更新要重写 { $per_update } 个文档来保持 { $path } 实时（最大的父文档为 { $largest } 个；{ $basis }）：每秒写入 { $writes } 个文档，只为节省每秒 { $reads } 次经由 { $relationship } 的读取（读写比 { $ratio }）
live-copy-amplification-fix = 只对以读为主的字段做反范式化；这个字段改用引用，或者在时间点快照正确时复制为快照。
unindexed-query = “{ $unit }”执行 { $command } 时 { $keys } 上没有索引：全集合扫描
unindexed-query-fix = 创建布局中列出的索引。
unindexed-query-run = “{ $unit }”以 COLLSCAN 执行 { $command }：在完整规模下每次检查 { $examined } 个文档
case-insensitive-without-index = “{ $unit }”用 { $command } 查找不区分大小写的文档：这是不区分大小写的正则表达式，任何索引都无法为它限定范围，因此在完整规模下每次执行{ $scanned }
case-insensitive-collscan = COLLSCAN 检查 { $examined } 个文档
case-insensitive-ixscan = 扫描 { $index } 检查全部 { $keys } 个键
case-insensitive-without-index-fix = 创建带不区分大小写排序规则的索引 { $create }，并以相同的排序规则查询（{ $query }）：即字段模式 { $pattern }。
unindexed-query-run-fix = 创建以过滤条件的等值字段为第一个键的索引（布局中列出了工作负载需要的索引）。
scatter-gather = “{ $unit }”执行 { $command } 时没有带片键 { $shard_key }：它会发往全部 { $shards } 个分片，并等待最慢的分片
scatter-gather-run = “{ $unit }”执行 { $command } 时没有带片键 { $shard_key }：它会发往全部 { $shards } 个分片（每秒 { $rate } 次 × { $shards } = 每秒 { $requests } 次分片请求），并等待最慢的分片
scatter-gather-fix = 按读取所过滤的字段分片（例如写时扇出信息流的 owner），或在过滤条件中带上片键。
separated-read = “{ $unit }”（每秒 { $rate } 次）按 { $by } 读取 { $entity } 及其 { $relationship }，需要 { $trips } 次往返，其中 { $extra } 次用于读取集合 { $collection } 中的 { $child } 文档：一起读取，却分开存储；而任何 { $parent } 都不超过 { $max } 个（有界、不增长），也没有工作负载步骤单独读取、列出、插入或删除 { $child } 文档。内嵌之后，这次读取只需 { $saved }：每秒少 { $fewer }
round-trip = { $count } 次往返
round-trips = { $count } 次往返
separated-read-fix = 一起读取的数据就一起存储：把 { $child } 内嵌到 { $parent } 中（embed 策略，与反范式化设计相同），或保留扩展引用，复制读取所显示的 { $child } 字段（extended_reference 策略并设置 copy）。
excessive-lookup = “{ $unit }”（每秒 { $rate } 次）每次都用 $lookup 连接 { $from }：每秒 { $lookups } 次 $lookup 读取 { $from }，而工作负载每秒只写入它 { $written } 次（{ $ratio }）。每次 $lookup 都要读取第二个集合，而其中的数据远不如连接那么频繁地变化
excessive-lookup-ratio = 读写比 { $ratio }
excessive-lookup-never-written = 工作负载从不写入它
excessive-lookup-fix = 把读取所显示的 { $from } 数据复制到它所读取的文档中：有界时内嵌，或保留扩展引用（extended_reference 策略并设置 copy）；$lookup 只留给很少的读取，或变化与读取一样频繁的数据。

## 多对多

parents-per-child-assumed = { $collection }.{ $field } 保存每个 { $child } 的 { $parent } id（{ $relationship }，多对多）：模型没有给出 parents_per_child，所以每个子文档都取平均值 { $mean } 个 id（{ $parents } 个父文档 × 每个 { $per_parent } 个子文档 ÷ { $children } 个子文档），作为它的 p50、p99 和最大值：尾部是假定的
parents-per-child-assumed-fix = 在关系上给出 parents_per_child（一个子文档有多少个父文档：典型值、p99、最大值），这样数组的尾部才是真实的。
parents-per-child-disagrees = { $relationship }：两侧计算的关联数不同：{ $parents } 个父文档 × 每个 { $per_parent } 个子文档 = { $from_parents }，但 { $children } 个子文档 × 每个 { $per_child } 个父文档（parents_per_child）= { $from_children }；{ $collection }.{ $field } 保存的是后者
parents-per-child-disagrees-fix = 让两侧的平均值一致（父文档数 × 平均基数 = 子文档数 × parents_per_child 的平均值），或把每一侧的数字当作各自的假设来看。

## 集群

hot-shard = 一个片键值（{ $value }）占有 ≈{ $bytes }，是每个分片平均份额的 { $factor } 倍：它的文档无法拆分，所以 { $shards } 个分片中的一个要承担全部（根据样本估算）。
hot-shard-fix = 在片键中加入一个能拆分大值文档的字段（例如 {"{"} owner: 1, sequence: 1 {"}"}），或对它们分桶。
jumbo-chunk = ≈{ $count } 个片键值的数据超过一个块（128 MiB）：这样的块永远无法被均衡器拆分或迁移（根据样本估算）。
jumbo-chunk-fix = 选择每个文档取值更分散的片键，或在片键中加入第二个字段。
monotonic-shard-key = 范围片键 { $shard_key }：{ $field }：{ $why }：每次插入都落到最后一个块，也就是同一个分片上。
monotonic-shard-key-fix = 使用哈希片键，或让片键以不随插入顺序增长的字段开头。
working-set-exceeds-cache = 每个分片的工作集 ≈{ $working_set }（一小时内的热文档加上全部索引）超过 WiredTiger 缓存 { $cache }（{ $ram } 内存的 50% − 1 GiB）：读取会落到磁盘。
working-set-exceeds-cache-fix = 增加内存或分片，删除未使用的索引，或缩小热文档。

## 命令行报告

report-warnings = 警告
report-no-warnings = 没有警告。
report-fix = 修复：
severity-info = 信息
severity-warning = 警告
severity-error = 错误

## 时间序列

sparse-time-series-buckets = 粒度“{ $granularity }”每 { $span } 秒关闭一个桶，而典型的 { $parent } 每天只增加 { $growth } 个 { $child }：每个桶只有 { $count } 个测量值，每个桶都要负担自己的 control 块
sparse-time-series-buckets-fix = 选择更粗的粒度（minutes、hours），让一个桶容纳同一序列足够多的测量值。

## Model problems
## 模型的校验问题（docs/problems.md）：每个代码一条 `problem-<code>`，值与英文相同。

problem-place-path = { $path }：{ $message }
problem-place-line = 第 { $line } 行，第 { $column } 列：{ $message }
problem-kind-null = 空值 null
problem-kind-boolean = 布尔值
problem-kind-number = 数字
problem-kind-string = 字符串
problem-kind-array = 数组
problem-kind-object = 对象
problem-alternative = { $name }
problem-alternatives = { $rest } 或 { $last }
problem-json-syntax = JSON 语法错误：{ $detail }
problem-json-too-deep = JSON 嵌套过深：{ $detail }：模型的 JSON 最多嵌套 128 层（对象和数组）
problem-json-number-out-of-range = 数字超出范围：{ $detail }：数字必须是有限的双精度浮点数（最大约 1.8e308）
problem-json-shape = JSON 结构错误：{ $detail }
problem-expected-object = 应为对象，实际为{ $found }
problem-expected-string = 应为字符串，实际为{ $found }
problem-expected-array = 应为数组，实际为{ $found }
problem-expected-boolean = 应为 true 或 false，实际为{ $found }
problem-expected-number = 应为数字，实际为{ $found }
problem-expected-whole-number = 应为 ≥ { $min } 的整数，实际为 { $found }
problem-expected-date = 应为 YYYY-MM-DD 格式的日期，实际为“{ $value }”
problem-expected-tip-number = 应为技巧编号，实际为{ $found }
problem-expected-design-name = 应为设计名称，实际为{ $found }
problem-expected-shard-key = 应为片键对象，实际为{ $found }
problem-expected-fields-object = 应为字段对象，实际为{ $found }
problem-expected-distribution = 应为分布对象，实际为{ $found }
problem-expected-strategy-object = 应为策略对象，实际为{ $found }
problem-expected-pattern-object = 应为模式对象，实际为{ $found }
problem-expected-step-object = 应为步骤对象，实际为{ $found }
problem-expected-entity-names = 应为实体名称的数组，实际为{ $found }
problem-expected-entity-names-plain = 应为实体名称的数组
problem-expected-field-names = 应为字段名称的数组，实际为{ $found }
problem-expected-field-names-plain = 应为字段名称的数组
problem-expected-field-name = 应为字段名称，实际为{ $found }
problem-expected-field-name-plain = 应为字段名称
problem-expected-entity-field = 应为实体“{ $entity }”的字段
problem-unknown-key = 未知的键“{ $key }”；应为以下之一：{ $expected }
problem-missing-key = 缺少必需的键“{ $key }”
problem-nan = NaN 不是模型可用的数字
problem-not-finite = 应为有限的数字
problem-negative = 不能为负数（实际为 { $value }）
problem-below-minimum = 至少为 { $min }（实际为 { $value }）
problem-too-large = 最多为 { $max }（实际为 { $value }）：远超任何真实数据
problem-empty = 不能为空
problem-sample-scale-range = 必须在 (0, 1] 之内（实际为 { $value }）
problem-sample-too-large = 最多为 { $max }（实际为 { $value }）：它是在内存中生成的样本的大小，不是完整数据的大小
problem-ram-range = 必须大于 0 且最多 1,000,000 GiB（实际为 { $value }）
problem-too-many-entities = 最多 { $max } 个实体（实际为 { $count } 个）：每个实体都是一个独立的集合
problem-too-many-relationships = 最多 { $max } 个关系（实际为 { $count } 个）
problem-too-many-fields = 最多 { $max } 个字段（实际为 { $count } 个）
problem-too-many-shards = 最多为 { $max }（实际为 { $value }）：Squillion 会报告每个分片的份额
problem-too-many-slots = 最多为 { $max }（实际为 { $value }）：每个槽位都是每个文档中的一个字段
problem-duplicate-entity = 重复的实体“{ $name }”
problem-duplicate-relationship = 重复的关系“{ $name }”
problem-duplicate-pattern = 同一字段有两个模式
problem-unknown-entity = 未知的实体“{ $name }”
problem-unknown-relationship = 未知的关系“{ $name }”
problem-no-such-field = 实体“{ $entity }”没有字段“{ $field }”
problem-no-copy-field = 实体“{ $entity }”没有字段 { $field }
problem-bad-key-type = 引用的键必须是 int、long、double、decimal、string 或 objectId 类型的字段（“{ $field }”不是）
problem-map-key-not-string = 实体“{ $entity }”的字段“{ $field }”不是字符串：只有字符串能作为映射条目的名字
problem-empty-field-name = 字段名不能为空
problem-bad-field-name = 字段名不能以 $ 开头，也不能包含 . 或 NUL
problem-unknown-bson-type = 未知的 BSON 类型“{ $type }”；应为以下之一：{ $expected }
problem-unknown-kind = 未知的 kind“{ $kind }”；应为以下之一：{ $expected }
problem-enum-needs-values = kind “enum” 需要非空的 “values” 列表
problem-probability-range = 概率在 0 到 1 之间（实际为 { $value }）
problem-min-over-max = min（{ $min }）大于 max（{ $max }）
problem-p99-over-max = p99（{ $p99 }）大于 max（{ $max }）
problem-typical-over-p99 = typical（{ $typical }）大于 p99（{ $p99 }）
problem-min-over-typical = min（{ $min }）大于 typical（{ $typical }）
problem-typical-not-positive = 对于长尾形状，typical 必须大于 0
problem-no-length = 类型“{ $type }”没有长度
problem-array-needs-items = 数组需要 “items”：元素的类型
problem-nested-arrays = 不支持数组的数组；请使用对象数组
problem-array-needs-count = 数组需要 “count”：其长度的分布
problem-count-on-non-array = 只有数组才有 count
problem-object-needs-fields = 对象需要 “fields”
problem-fields-on-non-object = 只有对象（以及对象数组）才有 fields
problem-missing-shape = 缺少必需的键 “shape”（{ $expected }）
problem-unknown-shape = 未知的形状“{ $shape }”；应为 { $expected }
problem-parents-per-child-one-to-many = parents_per_child 需要 many_to_many: true（一对多关系中的子文档只有一个父文档）
problem-empty-shard-key = 片键至少需要一个字段
problem-shard-key-value = 片键字段的值为 1 或 “hashed”
problem-not-offered-design = “{ $name }”不是所提供的设计之一
problem-design-label-too-long = 最多 { $max } 个字符（设计按钮的标签）
problem-lesson-multiline = 要点只能有一行
problem-custom-design-named = “{ $name }”是一个具名设计；请换一个名称
problem-custom-design-reserved = “{ $name }”指模型自己的设计（页面上的“自定义”）；请换一个名称
problem-no-designs = 预设至少提供一个设计
problem-unknown-design = 未知的设计“{ $name }”；应为 { $expected }
problem-unknown-joins = 未知的 joins“{ $joins }”；应为 { $expected }
problem-unknown-strategy = 未知的策略“{ $strategy }”；应为以下之一：{ $expected }
problem-feed-strategy-needs-feed = “{ $strategy }”需要一个带有 “feed” 实体的关系
problem-feed-needs-feed-strategy = 关系“{ $relationship }”是信息流：请使用 fan_out_on_read、fan_out_on_write 或 bucketed_fan_out
problem-tree-needs-tree-strategy = 关系“{ $relationship }”是树（树步骤引用了它）：请使用 parent_references、child_references、array_of_ancestors、materialized_paths 或 nested_sets
problem-single-collection-one-to-many = “{ $strategy }”把每个子文档放在其唯一父文档的集合中：关系“{ $relationship }”必须是两个不同实体之间的一对多
problem-tree-strategy-not-tree = “{ $strategy }”用于树结构：关系“{ $relationship }”必须是从一个实体到其自身的一对多
problem-unknown-granularity = 未知的粒度“{ $granularity }”；应为 { $expected }
problem-time-series-one-to-many = “time_series”需要两个实体之间的一对多；“{ $relationship }”不是
problem-time-series-needs-date = “time_series”需要“{ $entity }”中有一个日期字段（即 timeField）
problem-read-by-itself = “{ $strategy }”把“{ $entity }”放在其他文档之内，没有自己的集合，但操作“{ $unit }”单独读取它（{ $op }）：请选择让它保留在自己集合中的策略
problem-time-series-not-measurement = “time_series”需要“{ $entity }”是测量值：有一个日期字段，除“{ $relationship }”外不在任何关系中，且没有工作负载步骤单独读取、更新、删除或移动它
problem-time-series-sparse = “time_series”需要能填满桶的序列：一个典型的“{ $parent }”每天增加 { $growth } 个“{ $child }”，在最粗粒度的 30 天内少于 10 个
problem-unknown-pattern = 未知的模式“{ $pattern }”；应为 { $expected }
problem-unknown-form = form 为 { $expected }
problem-computed-other-parent = 关系“{ $relationship }”的父实体是“{ $parent }”
problem-no-file-field = 实体“{ $entity }”没有顶层 binData 或 string 字段“{ $field }”：只有这样的字段才能作为文件存储
problem-archive-needs-date = 实体“{ $entity }”没有顶层日期字段“{ $field }”：归档按文档的时间移动文档
problem-read-share-range = 是读取的份额，0 到 1（实际为 { $value }）
problem-schema-version-field-taken = 实体“{ $entity }”已有字段“{ $field }”：模式版本是一个独立的字段
problem-measurements-needs-date = 实体“{ $entity }”没有顶层日期字段：测量值的时间来自它
problem-measurements-name-taken = “{ $name }”已经是一个实体：该模式会生成一个同名实体
problem-measurements-same-names = 必须与“meta”不同：序列和它的测量值是两个实体
problem-measurements-granularity = granularity 为 { $expected }
problem-migration-same-version = 迁移要到 { $version } 以外的另一个版本
problem-document-share-range = 是文档的份额，0 到 1（实际为 { $value }）
problem-polymorphic-too-few = 多态集合至少容纳两个不同的实体
problem-polymorphic-twice = 实体“{ $entity }”在两个多态集合中
problem-polymorphic-name-taken = 集合“{ $collection }”是一个它不容纳的实体的名称
problem-case-insensitive-by-id = 不区分大小写的读取需要 “by”：一个字符串字段（_id 没有大小写）
problem-unknown-op = 未知的操作“{ $op }”；应为 { $expected }
problem-child-of-other-parent = 关系“{ $relationship }”的父实体是“{ $parent }”，不是“{ $entity }”
problem-sort-order = order 为 1 或 -1
problem-reassign-one-to-many = reassign 把子文档移到另一个父文档：关系“{ $relationship }”必须是一对多（不是多对多，也不是信息流）
problem-tree-step-not-tree = { $op } 读取或修改树：关系“{ $relationship }”必须是从一个实体到其自身的一对多
problem-not-a-feed = 关系“{ $relationship }”没有 “feed” 实体
problem-unknown-copies = copies 为 { $expected }
problem-unknown-paging = paging 为 { $expected }
problem-none = 模型有效。
problem-show-line = 显示第 { $line } 行
problem-and-more = 还有 { $count } 个问题
## Advisor

advisor-step-screen = 正在筛选 { $count } 个设计的空间
advisor-step-engine = 正在引擎上运行：{ $design }
advisor-step-explain = 正在解释推荐
advisor-why-chosen = { $chosen }。
advisor-why-infeasible = “{ $choice }”不可行：{ $why }。
advisor-why-runner-up = 次优选择是“{ $choice }”：{ $costs }。
advisor-why-no-alternative = 没有可行的替代方案。
advisor-why-growth = 若最大父文档每天增长少于 { $below }（当前 { $today }），它在整个期限内都不会超限。
advisor-choice-flip = 在引擎上它{ $costs }，在{ $when }时胜出。
advisor-choice-flip-never = 在引擎上它{ $costs }，在任何读写比和存储权重下都不占优。
advisor-choice-flip-cheaper = 在引擎上它{ $costs }：按代价模型比这一选择更便宜。
advisor-choice-flip-costs = 每秒工作量 { $work }，磁盘 { $storage }{ $decides }
advisor-choice-flip-decides-term = ，主要是{ $term }
advisor-choice-flip-decides-storage = （由磁盘字节决定）
advisor-choice-flip-below = 每次写对应少于 { $at } 次读（当前 { $today }）
advisor-choice-flip-above = 每次写对应多于 { $at } 次读（当前 { $today }）
advisor-choice-flip-storage = 存储权重 × { $factor }
advisor-choice-flip-or = 或
advisor-choice-flip-same = 在引擎上它的代价完全相同：这一选择不改变任何测得的数字。
advisor-choice-flip-infeasible = 在引擎上它突破了硬性限制，不能被选中。
advisor-choice-flip-refused = 在引擎上它有命令被拒绝，不能被选中。
advisor-choice-flip-no-answer = 在引擎上它没有给出每一步的逻辑答案，不能被选中。
advisor-choice-flip-failed = 引擎无法评估它。
advisor-costs = 每秒读往返 { $reads }，每秒写入文档 { $writes }、索引键 { $keys }，数据 { $data }，索引字节 { $indexes }（筛选得分 { $score }）
advisor-breach-past = { $collection }.{ $path } 在 { $count } 个元素时突破 16 MiB；最大的父文档已有 { $largest } 个
advisor-breach-horizon = { $collection }.{ $path } 在 { $count } 个元素时突破 16 MiB；最大的父文档（现有 { $largest } 个）将于 { $date }（{ $days } 天后）达到
advisor-breach-largest = 模型允许的最大 { $collection } 文档会超过 16 MiB 上限
advisor-breach-depth = { $collection } 的文档嵌套超过 100 层
advisor-breach-indexes = { $collection } 的索引超过 64 个
advisor-breach-open-keys = { $collection }.{ $path } 以不断新增的值作键：每个键一个索引，每来一个新值就要新建一个索引，迟早超过 64 个索引
advisor-breach-other = { $collection }：{ $code }
advisor-method-exhaustive = 穷举
advisor-method-local = 局部
advisor-report-model = 模型
advisor-report-search = { $model }：{ $method }搜索 { $space } 个设计：已筛选 { $explored } 个（{ $feasible } 个可行，{ $infeasible } 个在 { $days } 天内不可行，{ $invalid } 个无法布局）
advisor-report-weights = 权重：读 { $reads }，写 { $writes }，存储 { $storage }
advisor-report-recommended = 推荐：{ $label }
advisor-report-design = 设计：{ $design }
advisor-report-none = 没有可行的设计
advisor-report-why = 原因：
advisor-report-top = 筛选得分最佳的设计（再由引擎按成本决定）：
advisor-report-front = 帕累托前沿（读成本、写成本、存储）：
advisor-report-agree = 每个已验证的设计上，筛选与引擎的结果都在容差之内
advisor-report-disagree = 筛选与引擎不一致：
advisor-report-disagreement = { $design }：{ $figure } 筛选值 { $screened }，引擎值 { $engine }（允许 { $low }–{ $high }）{ $note }
advisor-figures = 读 { $reads }/s，写 { $writes } 个文档 + { $keys } 个索引键/s，存储 { $storage } + 索引 { $indexes }（筛选得分 { $score }）
advisor-figures-engine = ；引擎：读 { $reads }/s，写 { $writes } 个文档 + { $keys } 个索引键/s，索引 { $indexes }，检查的文档 { $examined }/s{ $infeasible }
advisor-figures-infeasible = ，不可行：{ $limits }
advisor-figures-error = ；引擎错误：{ $error }
advisor-cost = 代价：每秒 { $work } 工作（读 { $reads }，写 { $writes }；其中 { $share } 来自{ $term }），存储 { $storage }
advisor-term-round-trips = 往返
advisor-term-keys-examined = 扫描的索引键
advisor-term-docs-examined = 扫描的文档
advisor-term-bytes-returned = 返回的字节
advisor-term-docs-written = 写入的文档
advisor-term-bytes-written = 写入的字节
advisor-term-index-keys-written = 写入的索引键
advisor-term-docs-from-disk = 从磁盘读取的文档（工作集超出缓存的部分）
advisor-runner-up-reads = 与次优设计（{ $design }）相比：它的读操作代价更高{ $term }
advisor-runner-up-writes = 与次优设计（{ $design }）相比：它的写操作代价更高{ $term }
advisor-runner-up-storage = 与次优设计（{ $design }）相比：它在磁盘上占用更多字节
advisor-runner-up-tie = 与次优设计（{ $design }）相比：两者持平
advisor-report-flips = 选择在何处翻转（对每个其他已验证的设计）：
advisor-flip = { $design }（决策得分比推荐高 { $delta }）：{ $when }
advisor-flip-ratio = 每次写对应 { $at } 次读时持平（当前 { $today }）
advisor-flip-factor = 所有读速率 × { $factor } 时持平
advisor-flip-storage = 存储权重 × { $factor } 时持平
advisor-flip-or = ；
advisor-flip-never = 在任何读写比和存储权重下都不占优
advisor-words-design = { $choices }
advisor-words-only-design = 唯一的设计
advisor-words-no-pattern = 不使用字段模式
advisor-words-embed = 把每个 { $parent } 的 { $rel } 内嵌在 { $parent } 文档中
advisor-words-embed-subset = 在 { $parent } 文档中内嵌最新的 { $n } 个 { $rel }，每个 { $child } 也存于自己的集合
advisor-words-extended-reference = 在每个 { $parent } 文档中为它的每个 { $rel } 保存一个含其 id 的子文档
advisor-words-extended-reference-copy = 在每个 { $parent } 文档中保存它的每个 { $rel } 的 id 和 { $fields }
advisor-words-reference-in-parent = 在每个 { $parent } 文档中保存它的各个 { $rel } 的 id
advisor-words-reference-in-child = 每个 { $child } 保存对其 { $parent } 的引用
advisor-words-reference-in-child-copy = 每个 { $child } 保存对其 { $parent } 的引用及其 { $fields } 的副本
advisor-words-reference-in-child-many = 每个 { $child } 保存它所在 { $rel } 的各个 { $parent } 文档的 id
advisor-words-reference-in-child-many-copy = 每个 { $child } 保存它所在 { $rel } 的各个 { $parent } 文档的 id 和 { $fields }
advisor-words-two-way = 双向引用：每个 { $parent } 文档保存它的各个 { $rel } 的 id，每个 { $child } 保存其 { $parent } 的 id
advisor-words-link-collection = 通过一个关联集合把每个 { $parent } 与它的 { $rel } 相连，每个关联一个文档
advisor-words-bucket = 把每个 { $parent } 的 { $rel } 按每桶 { $n } 个分桶存放
advisor-words-continuation = 在 { $parent } 文档中最多保存 { $n } 个 { $child } 的 id，其余放入连续文档
advisor-words-fan-out-on-read = 每条 { $item } 只存一份，附上它要进入其信息流的各个 { $child } 文档的 id
advisor-words-fan-out-on-write = 把每条 { $item } 复制到它要送达的每个 { $child } 的信息流中，每份副本一个文档
advisor-words-bucketed-fan-out = 把每条 { $item } 复制到它要送达的每个 { $child } 的信息流中，每个信息流按每桶 { $n } 条分桶
advisor-words-time-series = 把 { $rel } 作为测量值存入时间序列集合，每个桶跨度{ $span }
advisor-words-span-hour = 一小时
advisor-words-span-day = 一天
advisor-words-span-month = 30 天
advisor-words-parent-references = 每个 { $child } 保存其父节点的 id
advisor-words-child-references = 每个 { $parent } 保存它的各个 { $rel } 的 id
advisor-words-array-of-ancestors = 每个 { $child } 保存其所有祖先及父节点的 id
advisor-words-materialized-paths = 每个 { $child } 把其祖先路径保存为一个带索引的字符串
advisor-words-nested-sets = 每个 { $child } 保存深度优先遍历树时的左、右编号
advisor-words-single-collection = 把 { $rel } 存入 { $parent } 集合，每个 { $child } 与其 { $parent } 共用同一个键
advisor-words-joins-application = 在应用层连接，每个集合一次查询
advisor-words-joins-lookup = 在服务端用 $lookup 连接
advisor-words-attribute-keyed = 把每个 { $entity } 的 { $field } 存为一个以 { $key } 为键的子文档
advisor-words-attribute-key-value = 把每个 { $entity } 的 { $field } 存为由 { $key } 和 { $value } 组成的键值对数组
advisor-words-attribute-flattened = 把 { $entity } 的每个 { $field } 存为单独的文档，重复 { $entity } 的字段
advisor-words-computed-count = 在每个 { $entity } 的 { $field } 中保存其 { $rel } 的数量，每新增一个即更新
advisor-words-computed-sum = 在每个 { $entity } 的 { $field } 中保存其 { $rel } 的 { $sum } 之和，每新增一个即更新
advisor-words-no-computed = 在读取时计算每个 { $entity } 的 { $field }
advisor-words-preallocated = 创建每个 { $entity } 时预先分配 { $n } 个 { $field } 计数器并置零
advisor-words-no-preallocated = 每个 { $entity } 的 { $field } 计数器在首次写入时才添加
advisor-words-gridfs = 把每个 { $entity } 的 { $field } 存入 GridFS
advisor-words-object-storage = 把每个 { $entity } 的 { $field } 存入对象存储，文档只保存其 URL
advisor-words-inline = 把每个 { $entity } 的 { $field } 保存在其文档内
advisor-words-approximate = 每 { $n } 个事件才写一次 { $entity } 的 { $field }
advisor-words-no-approximate = 每个事件都写入 { $entity } 的 { $field }
advisor-words-archive = 把超过 { $n } 天的 { $entity } 文档移入归档集合
advisor-words-no-archive = 所有 { $entity } 无论新旧都留在同一个集合
advisor-words-document-versioning = 把每个 { $entity } 的所有旧版本保存在历史集合中
advisor-words-no-document-versioning = 每个 { $entity } 只保存当前版本
advisor-words-schema-versioning = 把 { $entity } 文档从版本 { $from } 迁移到 { $to }，每个文档在 { $field } 中记录其版本
advisor-words-no-schema-versioning = 所有 { $entity } 文档保持同一种结构
advisor-words-case-insensitive-index = 为 { $entity } 的 { $field } 建立不区分大小写排序规则的索引
advisor-words-no-case-insensitive-index = 不借助索引、不区分大小写地按 { $field } 查找 { $entity }
advisor-words-measurements = 把每个 { $entity } 事件记录为时间序列集合中的测量值，按 { $field } 区分
advisor-words-no-measurements = 原地更新 { $entity } 的计数器
advisor-words-map = 把每个 { $entity } 的 { $field } 存为一个以 { $key } 为键的对象
advisor-words-no-map = 把每个 { $entity } 的 { $field } 保存为子文档数组
advisor-yardstick = 它的得分比范式化设计（基准，得分 0）差，因为{ $why }。
advisor-yardstick-infeasible = 范式化设计不可行：{ $why }
advisor-yardstick-engine-infeasible = 在引擎上范式化设计不可行：{ $limits }
advisor-yardstick-no-answer = 在引擎上范式化设计有 { $count } 个步骤没有给出逻辑答案
advisor-yardstick-refused = 引擎拒绝了范式化设计的 { $count } 条命令
advisor-yardstick-failed = 引擎无法评估范式化设计：{ $error }
advisor-yardstick-not-laid-out = 范式化设计无法布局
advisor-yardstick-costlier = 分数只计往返、文档和字节数，而引擎的数据经代价模型按这些权重定价后更有利于它：每秒 { $work } 工作、存储 { $storage }，而范式化设计为每秒 { $ywork } 工作、存储 { $ystorage }

## 比较的结论（src/advise/verdict.rs）：按顾问的代价模型胜出的设计，以及其余设计各自落败的原因。工作量为每秒负载的微秒数。
verdict-wins = { $winner }胜出：每秒负载需 { $work } 工作量，{ $other }需 { $other_work }；{ $mix }。
verdict-wins-storage = { $winner }以存储胜出：磁盘上数据与索引 { $storage }，{ $other }为 { $other_storage }；每秒负载工作量 { $work }，{ $other }为 { $other_work }；{ $mix }。
verdict-wins-tied = { $winner }胜出，与{ $other }持平：每秒负载工作量均为 { $work }；{ $mix }。
verdict-wins-alone = { $winner }胜出，它是唯一可用的设计：每秒负载工作量 { $work }；{ $mix }。
verdict-no-workload = 无需取舍：负载没有操作，因此只比较大小。
verdict-none-sound = 没有设计能胜出：每个设计都不可行或在引擎上失败。
verdict-mix-reads = 每次写对应 { $n } 次读
verdict-mix-writes = 每次读对应 { $n } 次写
verdict-mix-reads-only = 负载只有读
verdict-mix-writes-only = 负载只有写
verdict-line-infeasible = { $design }：不可行（{ $codes }：mongod 会拒绝它）。
verdict-line-command-failed = { $design }：引擎拒绝了它的 { $count } 条命令。
verdict-line-not-evaluated = { $design }：未能评估（{ $why }）。
verdict-line-reads = { $design }：读更慢{ $factor }（每秒负载 { $work }，胜出者 { $winner_work }{ $term }）。
verdict-line-writes = { $design }：写入工作更多{ $factor }（每秒负载 { $work }，胜出者 { $winner_work }{ $term }）。
verdict-line-storage = { $design }：存储更多{ $factor }（磁盘上数据与索引 { $storage }，胜出者 { $winner_storage }）。
verdict-line-ties = { $design }：持平（每秒负载工作量 { $work }，得分相同），排在胜出者之后。
verdict-factor = ，{ $factor }
verdict-mostly = ，主要是{ $term }
verdict-empty = {""}
verdict-term-round-trips = 往返
verdict-term-keys-examined = 扫描的索引键
verdict-term-docs-examined = 扫描的文档
verdict-term-bytes-returned = 返回的字节
verdict-term-docs-written = 写入的文档
verdict-term-bytes-written = 写入的字节
verdict-term-index-keys-written = 写入的索引键
verdict-term-docs-from-disk = 从磁盘读取的文档

## CLI report

cli-full = （全量）
cli-estimate = （估算值）
cli-design = 设计：{ $design }（种子 { $seed }，每个实体样本 ≤ { $max } 个文档，扇出写入上限 { $cap }）
cli-figures = 数字：无标记 = 在样本上测得；（全量）= 全量规模的算术；≈ = 估算值。
cli-collections = 集合
cli-collection = { $name }：{ $count } 个文档（样本 { $sampled } 个），数据 { $data }，{ $indexes } ≈{ $index_bytes }（估算值）
cli-index-one = { $count } 个索引
cli-index-many = { $count } 个索引
cli-shape = { $label }：p50 { $p50 }，p99 { $p99 }，预计最大 { $largest }{ $largest_estimate }，最大 { $max }{ $estimate }（模型上界：每个字段都取最大值）
cli-shape-at-bound = { $label }：p50 { $p50 }，p99 { $p99 }，预计最大 { $largest }{ $largest_estimate }，即模型上界（每个字段都取最大值）
cli-array-break = { $field } 在 { $count } 个元素时突破 16 MiB（最大的有 { $largest } 个）
cli-index = 索引 { $name } { $keys }
cli-index-partial = 索引 { $name } { $keys }，部分索引条件 { $partial }
cli-operations = 操作（典型对象；方括号内为最大对象）
cli-operation = { $unit } — { $rate }/s：{ $queries } [{ $largest_queries }]（{ $lookups } 次 $lookup），检查文档 { $examined } [{ $largest_examined }]，检查的索引键 { $keys } [{ $largest_keys }]，返回文档 { $returned } [{ $largest_returned }]，{ $returned_bytes } [{ $largest_returned_bytes }]，写入文档 { $written } [{ $largest_written }]，{ $written_bytes } [{ $largest_written_bytes }]，分片 { $shards } [{ $largest_shards }]
cli-query-one = { $count } 次查询
cli-query-many = { $count } 次查询
cli-not-sent = // 未发送：{ $mongosh }  // { $note }；{ $why }
cli-command = { $mongosh }  // { $note }；计划 { $plan }{ $no_index }；分片 { $touched }/{ $shards } { $routing }{ $fan_out }{ $error }
cli-no-supporting-index = （没有支持它的索引）
cli-fan-out = ；全量规模扇出 { $full }，写入 { $written }{ $capped }
cli-capped = （上限 { $cap }）
cli-command-error = ；错误 { $error }
cli-largest-error = { $unit }（最大对象）：{ $mongosh } — 错误 { $error }
cli-workload = 每秒工作负载：{ $round_trips } 次往返，{ $lookups } 次 $lookup，检查文档 { $examined }，写入文档 { $written }，写入 { $bytes }
cli-sharding = { $collection } 按 { $key }{ $hashed } 分布到 { $shards } 个分片（估算值）
cli-hashed = （哈希）
cli-shard = 分片 { $shard }：{ $documents } 个文档，{ $bytes }
cli-shard-balance = 最大的分片是平均份额的 { $imbalance }×；块 { $chunks }；巨型块 { $jumbo }
cli-shard-key-monotonic = 片键：基数 { $cardinality }（样本中 { $sample }）；最常见的值 { $common }（占样本 { $share }%，{ $documents } 个文档）；单调递增：{ $reason }
cli-shard-key-not-monotonic = 片键：基数 { $cardinality }（样本中 { $sample }）；最常见的值 { $common }（占样本 { $share }%，{ $documents } 个文档）；非单调递增：{ $reason }
cli-spread-reads = 读：{ $rate }/s，{ $single }% 单个分片，{ $multi }% 多个分片，{ $scatter }% 分散-聚集
cli-spread-writes = 写：{ $rate }/s，{ $single }% 单个分片，{ $multi }% 多个分片，{ $scatter }% 分散-聚集
cli-storage = 存储（估算值：样本 BSON 按 32 KiB 块做 snappy 压缩；时序集合的桶先按列压缩，再做 zstd 压缩）
cli-storage-collection = { $collection }：数据 { $data }，磁盘上 ≈{ $disk }（压缩比 { $ratio }），索引 ≈{ $indexes }，一小时内的热数据 ≈{ $hot }
cli-storage-total-fits = 合计：数据 { $data }，磁盘上 ≈{ $disk }，索引 ≈{ $indexes }；工作集 ≈{ $working_set }（{ $shards } 个分片，每个 ≈{ $per_shard }），WiredTiger 缓存 { $cache }（内存 { $ram }）：放得下
cli-storage-total-exceeds = 合计：数据 { $data }，磁盘上 ≈{ $disk }，索引 ≈{ $indexes }；工作集 ≈{ $working_set }（{ $shards } 个分片，每个 ≈{ $per_shard }），WiredTiger 缓存 { $cache }（内存 { $ram }）：放不下
cli-compare-metric = 指标（越低越好）
cli-compare-warnings = 警告（错误）
cli-compare-feasible = 可行
cli-compare-no = 不可行
cli-compare-yes = 是
cli-compare-footnote = {"*"} 可行设计中每个指标的最佳值（并列的都标出）。每秒数字按典型对象计算。
cli-compare-infeasible = { $design } 不可行：{ $codes }（错误级别的警告：mongod 会拒绝它）；从不标为最佳。

## Diagrams (src/diagram/drawing.rs, `squillion diagram`): the words the boxes and lines say

diagram-collection = 集合
diagram-gridfs-files = GridFS 文件
diagram-gridfs-chunks = GridFS 分块
diagram-time-series = 时间序列桶
diagram-embedded = 内嵌
diagram-entity = 实体
diagram-entity-count = 全量 { $count } 个
diagram-shape = — { $label } 文档 —
diagram-figures = { $documents } 个文档，p99 { $p99 }，最大 { $largest }
diagram-counts = p50 { $p50 } · p99 { $p99 } · 最多 { $max }
diagram-range = { $min }..{ $max }（p50 { $p50 }，p99 { $p99 }）
diagram-copy-of = 复制自 { $source }
diagram-unbounded = 无界
diagram-over-limit = 可能超过 16 MiB：{ $shape }
diagram-index = 索引 { $keys }
diagram-unique = 唯一
diagram-multikey = 多键
diagram-partial = 部分
diagram-many-to-many = 多对多
diagram-growth = 每天 +{ $typical }（最大的每天 +{ $largest }）
cli-diagram-written = 已写入 { $path }

## Infer summary

infer-empty = {""}
infer-assumed-reference = { $values } 个值中有 { $resolved } 个是“{ $target }”的 _id{ $sampled }：是引用（{ $where }），不是字段
infer-assumed-reference-key = { $values } 个值中有 { $resolved } 个是“{ $target }”的唯一键 { $key } 的值（{ $unique }）{ $sampled }：是引用（{ $where }），不是字段
infer-unique-by-index = 唯一索引
infer-unique-in-data = 数据中每个值只出现一次
infer-assumed-feed = 与 { $other } 一起构成读时扇出的信息流“{ $relationship }”：每个文档含一个指向作者的引用（{ $author }）和一个接收者数组（{ $recipients }），二者都是“{ $target }”的 _id，因此是一个信息流关系，而不是两个
infer-assumed-sampled = （按值的样本计数）
infer-in-the-parent = 在父文档中
infer-in-the-child = 在子文档中
infer-assumed-moved-out = 子文档数组已移出：实体“{ $child }”，关系“{ $relationship }”（在模型的设计中内嵌）
infer-assumed-map = 以数据为键的对象（{ $keys } 个不同的键，中位数的键出现在 { $share }% 的对象中，值的类型相同），即映射：已移出为实体“{ $child }”，每个条目一个，其键在字段 { $key } 中，关系“{ $relationship }”（在模型的设计中按映射布局；去掉映射模式则为数组）
infer-assumed-without-map = { $of } 个中有 { $count } 个没有该对象（缺失、null 或其他类型），按 0 个条目计
infer-assumed-without-array = { $of } 个中有 { $count } 个没有该数组（缺失、null 或其他类型），按 0 个子项计；内嵌时写成空数组
infer-assumed-not-sub-documents = { $of } 个元素中有 { $count } 个不是子文档：按子项计数，其值不保留
infer-assumed-numeric-id = 数值型 _id 是唯一的：写成序列，而不是看到的范围
infer-assumed-enum-even = 模型均匀地抽取枚举值（观察到的占比在报告中）
infer-assumed-empty-objects = 只见到空对象：写成 null（模型中的对象需要字段）
infer-assumed-empty-arrays = 只见到空数组：元素写成 null
infer-assumed-nested-arrays = 不支持数组的数组：元素写成 null
infer-assumed-symbol = symbol（已弃用）写成 string
infer-assumed-code-with-scope = javascriptWithScope 写成 javascript（其作用域不计）
infer-assumed-db-pointer = dbPointer 写成 objectId（其命名空间不计）
infer-assumed-undefined = undefined 写成 null
infer-documents-one = { $count } 个文档
infer-documents-many = { $count } 个文档
infer-lines-one = { $count } 行
infer-lines-many = { $count } 行
infer-source = { $source } → { $collection }：读取 { $documents }，跳过 { $skipped }
infer-entity = { $name }：读取 { $documents } 个文档，数量 { $count }，{ $fields } 个字段路径
infer-how-embed = 内嵌数组 { $field }
infer-polymorphic = 多态集合：文档按 { $field } 分为几类：{ $variants }；{ $layout }
infer-polymorphic-split = 按多态模式每类一个实体（{ $entities }），同在这一个集合中
infer-polymorphic-kept-referenced = 保留为一个实体：关系 { $relationship } 指向其文档，不分类别
infer-polymorphic-kept-shared = 保留为一个实体：{ $field }（关系 { $relationship }）出现在多类文档中
infer-polymorphic-kept-pattern = 保留为一个实体：{ $pattern } 模式作用于整个集合
infer-how-map = 映射 { $field }（以数据为键的对象，按映射布局）
infer-how-ids-in-parent = 父文档中的 id 数组 { $field }
infer-how-link = 关联集合 { $field }
infer-how-feed = 读时扇出的信息流 { $field }（每个文档含一个作者引用和一个接收者数组，二者指向同一集合）
infer-how-reference = 子文档中的引用 { $field }
infer-relationship = { $name }：{ $parent } → { $child }（{ $how }{ $many }），数量 { $count }，每个父文档的子项 最小 { $min } 中位数 { $median } p99 { $p99 } 最大 { $max }{ $resolved }{ $without }{ $sampled }
infer-many-to-many = ，多对多
infer-resolved = ，{ $values } 个 id 中解析出 { $resolved } 个
infer-resolved-key = ，{ $values } 个值中通过唯一键 { $key } 解析出 { $resolved } 个
infer-without-array = ，{ $count } 个没有该数组（0 个子项）
infer-sampled = ，数字来自值的样本
infer-parents-per-child = ，每个子项的父文档 最小 { $min } 中位数 { $median } p99 { $p99 } 最大 { $max }
infer-growth = ，每天增长 典型 { $typical }，最大 { $largest }（创建时间：{ $from }，{ $days } 天）
infer-field-note = { $entity }.{ $path }：{ $note }
infer-unique = （唯一）
infer-index = { $collection } 上的 { $name } {"{"}{ $keys }{"}"}{ $unique }（已报告，不在模型中）
infer-skipped-byte = { $source }：第 { $byte } 字节：{ $message }
infer-skipped-line = { $source }：第 { $line } 行：{ $message }
infer-skipped-statement-unread = { $source }：第 { $line } 行：{ $statement }：无法读取（{ $error }）
infer-skipped-statement-other = { $source }：第 { $line } 行：{ $statement }（不是表，已跳过）
infer-cli-present = 出现 { $share }%
infer-cli-types = 类型 { $shares }
infer-cli-length = 长度 最小 { $min } 中位数 { $median } p99 { $p99 } 最大 { $max }
infer-cli-count = 数量 最小 { $min } 中位数 { $median } p99 { $p99 } 最大 { $max }
infer-cli-assumed = 假设：{ $note }
infer-cli-relationship = 关系 { $name }：{ $parent } → { $child }（{ $how }{ $many }），数量 { $count }，每个父文档的子项 最小 { $min } 中位数 { $median } p99 { $p99 } 最大 { $max }{ $parents }{ $without }{ $resolved }{ $sampled }{ $growth }
infer-cli-index = 索引 { $name }，在 { $collection } 上 {"{"}{ $keys }{"}"}{ $unique }（来自 { $source }；已报告，不在模型中）
infer-cli-workload = 假设的工作负载：{ $what }，{ $rate }/s（{ $why }；数据中没有：请在模型中修改或删除）
infer-workload-read-by = 按 { $field } 读取 { $entity }
infer-workload-read-children = 读取 { $entity } 及其子实体
infer-workload-insert = 插入 { $entity }（{ $relationship }）
infer-workload-why-index = 索引 { $index } 所服务的查询
infer-workload-why-parent = 读取父实体及其子实体
infer-workload-why-insert = 添加一个子实体
infer-cli-skipped = 跳过 { $count } 行
infer-as-is = { $text }
infer-link-attribute-columns = { $table }：{ $columns }（多对多关系不带字段）

## Engine errors

engine-error-bad-value = 错误的值
engine-error-failed-to-parse = 无法解析
engine-error-type-mismatch = 类型不匹配
engine-error-path-not-viable = 路径不可用
engine-error-conflicting-update-operators = 更新运算符冲突
engine-error-immutable-field = 不可修改的字段
engine-error-bson-object-too-large = 文档超过 16 MiB
engine-error-overflow = 数值溢出
engine-error-duplicate-key = 重复键
engine-error-cannot-index-parallel-arrays = 无法为并列的数组建索引
engine-error-invalid-pipeline-operator = 无效的管道运算符
engine-error-index-not-found = 找不到索引
engine-error-internal = 内部错误
engine-error-other = 服务器错误
engine-error-cli = squillion query：{ $lead }（{ $code_name }）

## Evaluation steps

eval-step-generate = 正在生成样本文档
eval-step-insert = 正在插入 { $count } 个文档并建立索引
eval-step-measure = 正在测量各集合
eval-step-run = 正在运行“{ $unit }”
eval-step-finish = 正在分布到各分片，估算存储与警告

## Form edits
## 表单拒绝一次编辑的原因（`EditError::text`，src/model/edit.rs）。名称照模型原样写在“”中。

edit-empty-name = 名称不能为空
edit-name-taken = 已经有名为“{ $name }”的{ $what }
edit-not-found = 没有名为“{ $name }”的{ $what }
edit-invalid = 无法{ $action }：{ $problems }
edit-would-break-one = { $action }会破坏 1 处引用：{ $problems }
edit-would-break = { $action }会破坏 { $count } 处引用：{ $problems }
edit-problems-none = 没有问题
edit-problems-1 = { $first }
edit-problems-2 = { $first }；{ $second }
edit-problems-3 = { $first }；{ $second }；{ $third }
edit-thing-entity = 实体
edit-thing-relationship = 关系
edit-thing-field = 字段
edit-thing-strategy-override = 关系策略覆盖
edit-thing-copied-field = 策略复制的字段
edit-a-entity = 实体
edit-a-relationship = 关系
edit-a-field = 字段
edit-a-strategy-override = 关系策略覆盖
edit-a-copied-field = 策略复制的字段
edit-action-rename-entity = 重命名实体“{ $name }”
edit-action-rename-relationship = 重命名关系“{ $name }”
edit-action-rename-field = 重命名字段“{ $name }”
edit-action-delete-entity = 删除实体“{ $name }”
edit-action-delete-relationship = 删除关系“{ $name }”
edit-action-delete-field = 删除字段“{ $name }”
edit-action-use-strategy = 对“{ $relationship }”使用 { $strategy }
edit-action-reset = 将“{ $relationship }”恢复为基础设计
edit-action-base = 以“{ $base }”作为基础设计
edit-action-joins = 以“{ $joins }”连接
edit-action-copy = 为“{ $relationship }”复制“{ $field }”
edit-action-uncopy = 不再为“{ $relationship }”复制“{ $field }”
edit-action-custom-design = 开始自定义设计
