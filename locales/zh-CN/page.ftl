# 页面用语（src/ui），简体中文：与 locales/en/page.ftl 相同的 id 和相同的值。
# 数值（{ $count }）已格式化：三位一组、逗号分隔；大小用二进制单位；日期用 ISO 8601（docs/i18n.md）。

## Header, tabs, footer (src/ui.rs)

view-playground = 设计演练场
view-documents = 文档大小
view-console = 控制台
views-nav = 视图
tagline = MongoDB 模式设计，量化呈现
language-switch = 语言
workshop-mode = 讲习模式
workshop-mode-title = 大字号、高对比度，适合投影（W）
footer-privacy = 一切都在您的浏览器中运行；您输入的内容不会离开此页面。
footer-docs = 参考文档
skip-to-results = 跳到结果
skip-to-designs = 跳到设计

## console (src/ui/console.rs)

console-collections = 集合
console-database = 数据库 test
console-run-find = 对此集合运行 find()
console-docs = { $count } 个文档
console-samples = 来自文章的示例：带粉丝数组的社交关系图、内嵌商品的订单、按渠道定价的电影场次。
console-keys = Enter 运行 · Shift+Enter 换行 · ↑/↓ 历史记录
console-output = 控制台输出
console-empty = 在下方输入命令，或选一个示例。写操作会修改这个内存数据库，直到您重新加载页面。
console-command = mongosh 命令
console-run = 运行
console-try = 试试：
console-example-followers = 有 3 个粉丝的用户
console-example-grace = 谁关注了 Grace（索引）
console-example-alice = Alice 的订单，最新的在前
console-example-units = 每种商品的销量
console-example-web = 网上的低价场次
console-line-column = 第 { $line } 行，第 { $column } 列
console-source = 数据库
console-source-model = 你的模型
console-source-examples = 文章中的示例
console-model-sample = { $about }：由你的模型生成的 { $count } 个文档（每个实体最多 { $per } 个），带该设计的索引。写入会改变它们，直到切换或重新加载。
console-model-error = 你的模型无法生成可查询的样本：{ $error }
console-example-find = { $collection } 的 3 个文档
console-example-indexes = { $collection } 的索引
console-database-gone = 数据库已不存在
console-no-documents = 没有文档
console-one-document = 1 个文档
console-documents = { $count } 个文档
console-one-collection = 1 个集合
console-collection-count = { $count } 个集合
console-show-more = 显示更多（已显示 { $shown } / { $total }）

## sizer (src/ui/sizer.rs, src/ui/examples.rs)

sizer-document = 文档
sizer-example = 示例
sizer-example-document = 示例文档
example-social-graph-user = 社交关系图：带粉丝数组的用户
example-shopping-cart-order = 购物车：内嵌商品的订单
example-movie-prices = 电影场次：按渠道的价格
example-page-analytics = 页面统计：6 小时的每分钟计数器
example-person-addresses = 一对少：带地址的人
example-game-inventory = 游戏背包：物品数组
sizer-input = Extended JSON 或 mongosh 语法的文档
sizer-line-column = 第 { $line } 行，第 { $column } 列
sizer-last-valid = 显示的是上一个有效的文档
sizer-syntax = Extended JSON（canonical 或 relaxed）或 mongosh 语法：
sizer-list-separator = { "、" }
sizer-syntax-more = 不加引号的键、注释。
sizer-within-limit = 未超出上限
sizer-over-80 = 超过上限的 80%
sizer-over-limit = 超过 16 MiB 上限：mongod 会拒绝
sizer-too-deep = 嵌套超过 100 层：mongod 会拒绝
sizer-exact-size = 精确的 BSON 大小
sizer-bytes = 字节
sizer-bsonsize-before = 即
sizer-bsonsize-after = 的返回值
sizer-field-names = 字段名
sizer-array-indexes = 数组下标
sizer-array-indexes-note = "0"、"1"… 的字节
sizer-fields = 字段
sizer-fields-note = 含数组元素
sizer-depth = 嵌套深度
sizer-depth-note = 上限 100
sizer-top-level = 顶层字段
sizer-treemap-note = 每个格子的面积是该字段（键和值）在文档中的占比。
sizer-bytes-per-path = 每个路径的字节数
sizer-bytes-per-path-note = 键 = 类型字节 + 名称 + NUL。数组元素还要付出下标的位数 + 2。

## Model card (src/ui/editor.rs)

model-heading = 模型
model-file-toolbar = 模型文件
import-button = 导入…
import-title = 打开模型文件（.json）；也可以把文件拖放到这里
import-input = 导入模型文件
from-data-button = 从数据推断…
from-data-title = 从 mongoexport、mongodump 或 SQL 文件，或粘贴的文档推断模型
export-model-button = 导出
export-model-title = 将模型下载为 .json 文件
share-link-button = 分享链接
share-link-copied = 链接已复制。任何人打开它都会看到这个模型，以及当前的设计和视图；数据只留在对方的浏览器中。
share-link-field = 分享链接
preset-label = 预设
preset-edited = 已修改
own-model = 您自己的模型
presets-button = 预设…
blank-model = 空白模型
edit-as = 编辑模型的方式
tab-form = 表单
tab-diagram = 结构图
undo-title = 撤销 { $what }（Ctrl+Z）
nothing-to-undo = 没有可撤销的操作
redo-title = 重做 { $what }（Ctrl+Shift+Z 或 Ctrl+Y）
nothing-to-redo = 没有可重做的操作
undo-button = ↶ 撤销
redo-button = ↷ 重做
model-as-json = 模型的 JSON
drop-hint = 拖放模型文件即可导入
notice-opened-link = 已从链接打开模型。
restore-previous = 恢复您之前的模型
notice-opened-preset = 已打开“{ $title }”。
back-to-previous = 回到您之前的模型
notice-imported = 已导入“{ $file }”。
notice-refused-link = 无法打开此链接：{ $why }。您的模型没有改变。
notice-import-failed = 无法导入“{ $file }”：{ $why }。您的模型没有改变。
form-frozen = JSON 有语法错误：表单显示的是最后一个可读的模型。修正 JSON 或撤销（Ctrl+Z）后即可在此编辑。
form-json-broken = JSON 有语法错误：请先修正（或撤销），再在表单中编辑。
no-readable-model = 还没有可读的模型：请修正 JSON。
form-hint = 其他键（字段类型、分片、设计覆盖、预设说明）保持 JSON 中的原样。
valid-model = 模型有效。数字键切换设计；Ctrl+Z 撤销。
model-problems = { $count } 个问题；显示的是最后一个有效的模型
line-column = 第 { $line } 行，第 { $column } 列

## Preset chooser (src/ui/editor/chooser.rs)

chooser-title = 从一个场景开始
chooser-note = 每个预设都是文章中的一个场景，带有它所比较的设计。按一次 Ctrl+Z 即可回到当前模型。
close = 关闭
close-esc = 关闭（Esc）
your-own = 自定义
start-blank = 从空白开始
start-blank-lesson = 一个实体、两个字段，没有关系，没有工作负载：从这里搭建您的模型。
loaded-badge = 已加载
your-data = 您的数据
start-from-data = 从您的数据开始
start-from-data-lesson = 从 mongoexport、mongodump 或 SQL 文件，或粘贴的文档推断模型：在您的浏览器中读取，数据不会离开浏览器。
source-article = 文章 { $article }
source-article-tips = 文章 { $article } · 技巧 { $tips }
source-page = { $title }
title-separator = ：
colon = ：

## Playground (src/ui/playground.rs)

design-custom = 自定义
design-normalized = 范式化
design-denormalized = 反范式化
design-bucketed = 分桶
advise-button = 建议…
advise-title = 在此模型的所有设计中搜索最适合其工作负载的设计（squillion advise）
fix-the-model = 修正模型后即可看到数字。
eval-failed = 此设计无法在引擎上运行：{ $error }
design-bar = 设计
design-key-title = { $label }（按键 { $key }）
no-design-offered = 该模型没有提供任何设计

## Metrics (crate::eval::metric::Metric::label, as the page shows them)

metric-round-trips = 往返
metric-lookups = $lookup 次数
metric-docs-examined = 检查的文档
metric-keys-examined = 检查的索引键
metric-docs-returned = 返回的文档
metric-bytes-returned = 返回的字节
metric-docs-written = 写入的文档
metric-bytes-written = 写入的字节
metric-index-keys-written = 写入的索引键
metric-shard-requests = 分片请求
metric-shards-touched = 涉及的分片
metric-storage-bytes = 数据字节
metric-index-bytes = 索引字节（估算值）
metric-largest-document = 最大文档
metric-per-sec = { $label }/秒

## Compare table (src/ui/playground/compare.rs)

compare-heading = 比较设计
compare-note = 按工作负载的速率折算为每秒，与 squillion compare 的输出一致。越低越好；每行中最好的可行设计会高亮。mongod 会拒绝的设计（有错误级警告）不可行，永远不会是最好的。表格上方的结论按顾问的代价模型（与 squillion advise 的取舍一致）为每个数字定价，并指出应从哪个设计开始。
compare-table = 设计比较表
compare-metric = 指标
compare-infeasible-title = 不可行：mongod 会拒绝它（{ $codes }）
compare-infeasible = 不可行：{ $codes }
compare-workload = 工作负载
compare-nothing-to-run = 没有操作：无可运行，因此没有每秒的数字可比较。下面的大小就是全部比较。
compare-warnings = 警告（错误）
compare-verdict-label = 结论
compare-verdict-pending = 正在判定：已评估 { $done }/{ $count } 个设计…
compare-winner = 胜出
cell-failed = 失败

## Evaluation of the chosen design (src/ui/playground/evaluated.rs)

basis-full = { $value }（全量）
largest-subject = 最大的对象
queries-one = 次查询
queries-many = 次查询
queries-for-largest = （最大的对象为 { $count } 次）
rate-line = { $rate } / 秒 → { $trips } 次往返 / 秒
copy-mongosh = 复制 mongosh 代码
copy-button = 复制
not-sent = · 未发送：{ $why }
plan = · 计划 { $plan }
no-supporting-index = （没有支持的索引）
shards-line = · 分片 { $touched }/{ $shards }
engine-refused = 引擎拒绝了它：{ $error }
workload-engine-heading = 工作负载（在引擎上运行）
workload-engine-note = 典型对象；最大的对象在 [方括号] 中。无标记：在样本上实测；≈ 估算值；（全量）全量算术。
per-second-totals = 每秒：{ $trips } 次往返，{ $lookups } 次 $lookup，检查 { $examined } 个文档，写入 { $written } 个文档，写入 { $bytes }
nothing-to-run = 工作负载没有操作：无可运行。上面的大小就是全部结果；在模型的工作负载中添加一个操作，即可比较各设计的开销。
warnings-heading = 警告
warnings-note = 阈值及其来源：docs/warnings.md
no-warnings = 此设计没有警告。
consider = 建议：{ $fix }

## Collection cards (src/ui/playground/collections.rs)

estimate-bounds = 基于 { $draws } 个模拟文档的估算值；99% 置信区间：{ $low } – { $high } B
over-limit-line = 全量时有 { $approx }{ $count } 个 { $shape } 文档（{ $approx }{ $share }）超过 16 MiB，原因是 { $fields }
documents-count = { $count } 个文档
shape-documents = 文档
shape-count = 数量
shape-average = 平均
shape-largest = 最大
shape-bound = 上界
shape-bound-title = 上界：每个字段都取最长、每个数组都装满；没有文档能比它更大
shape-largest-expected-title = 全量 { $count } 个文档中预计最大的一个：每 { $count } 个中有一个比它大（尺寸分布的 1 − 1/{ $count } 分位数）。
array-capped = 有上限：永远不会突破 16 MiB
array-already-past = ：最大的父文档已经超过了
array-reached-by = ，最大的父文档在 { $date } 达到
array-breaks = 在 { $approx }{ $count } 个元素时突破 16 MiB{ $when }
array-no-break = 没有临界点
array-largest-has = （{ $relationship }）：最多 { $count } 个 ·
documents-sampled = 已采样 { $count } 个文档 ·
disk-at-full-scale = 磁盘约 { $size }（{ $compressor }）·
disk-compressor-columns = 列压缩后 { $codec }
index-one = 个索引
index-many = 个索引
indexes-at-full-scale = { $count } { $indexes }，全量 { $size }
multikey = ，多键
shard-key = 片键
break-date-on = 于 { $date }（{ $days } 天后）
break-date-beyond = { $years } 年内不会

## Charts (src/ui/playground/design_charts.rs and design_charts/)

charts-heading = 设计并排对比
charts-note = 引擎的数字，与 squillion compare 的输出一致。
placeholder-failed = 失败：{ $why }
placeholder-evaluating = 评估中…
chart-infeasible-label = { $label }（不可行）
chart-metric = 指标
legend-failed = { $label }：无法评估：{ $error }
legend-infeasible = { $label }：不可行，mongod 会拒绝它（{ $codes }）
legend-pending = { $label }（{ $state }）
cost-chart-title = 每个操作每次运行的开销
chart-no-operations = 工作负载没有操作：无可运行，这里没有可比较的内容。
chart-none-evaluated = 没有设计能被评估。
chart-evaluating = 正在评估各设计…
cost-bar-label = { $design }，{ $op }：每次运行 { $value } { $metric }
not-in-design = 此设计中没有
log-scale = 对数刻度
linear-scale = 线性刻度
cost-note = 每次运行的{ $metric }，典型对象 · { $scale }
cost-title = 每个设计中每个操作每次运行的{ $metric }（{ $scale }）
placeholder-bar-op = { $design }，{ $op }：{ $what }
placeholder-bar = { $design }：{ $what }
legend-collection = 集合 { $name }
index-sizes-estimates = 索引大小是估算值
index-faded = 浅色：集合的索引（估算值）
storage-chart-title = 全量时每个集合的存储
storage-summary = { $design }：共 { $size }
storage-bar = { $design }，{ $collection } { $kind }：{ $size }{ $estimate }
storage-kind-data = 数据
storage-kind-indexes = 索引
storage-estimate = （估算值）
storage-note = 数据和索引字节，全部文档，全量 · { $scale }
storage-title = 每个设计中全量时每个集合的存储（{ $scale }）

## Growth chart (src/ui/playground/growth.rs)

growth-summary = 随着 { $field } 增长，最大的 { $relationship } 文档的大小：在 { $count } 个元素时超过 16 MiB；目前最大的有 { $largest } 个。
growth-summary-no-break = 随着 { $field } 增长，最大文档的大小。
growth-largest-off = 最大：{ $count } →
growth-largest = 最大：{ $count }
growth-breaks-at = 在 { $count } 处突破

## Document limit gauge (src/ui/gauge.rs)

gauge-label = 占 16 MiB 文档上限的比例
gauge-over = 超出上限 { $size }
gauge-headroom = 距上限 { $size }
gauge-warning-mark = 80%：警告
gauge-share = 占 16 MiB 的 { $share }

## Workload, instant arithmetic (src/ui/playground/operations.rs)

workload-heading = 工作负载
workload-note = 每一行是一次往返，与 mongosh 发送的一致。

## Sample scale and evaluation status (src/ui/playground/scale.rs)

sample-label = 样本
sample-fits-title = 此设计的评估内存预算最多容纳每个实体 { $count } 个文档
sample-input = 每个实体生成的文档数
docs-per-entity = 文档 / 实体
model-default-button = 模型默认值：{ $count }
model-default = （模型的默认值）
clamped-budget = 已限制为 { $count }：此设计的内存预算最多容纳每个实体 { $count } 个。
clamped-format = 已限制为 { $count }（样本为每个实体 1 到 { $max } 个文档）。
other-designs = · 其他设计：已评估 { $done }/{ $all }…
evaluating-step = 正在评估 { $design }：{ $what }（{ $step }/{ $of }）…
evaluating-design = 正在引擎上评估 { $design }…
evaluation-progress = 评估进度
ran-on-engine = 在引擎上运行了 { $ms } ms · 样本 ≤ { $count } 文档 / 实体
not-evaluated = 未评估：{ $why }。
evaluating-inline = 在页面上评估：{ $why }。运行设计时页面可能会暂停。

## Sample document (src/ui/playground/sample.rs)

sample-doc-label = { $collection } 的样本文档（Extended JSON）
sample-largest = 最大文档
sample-typical = 典型
shape-link = 关联
shape-bucket = 桶
shape-feed-item = 动态条目
shape-feed-copy = 动态副本
shape-feed-bucket = 动态桶
shape-last-chunk = { $of } 末块
shape-chunk = { $of } 分块
shape-file = { $of } 文件
shape-continuation = { $of } 续接文档
sample-heading = 样本文档
sample-pending = 正在引擎上生成样本文档…
sample-which = { $collection } 的哪个样本文档
gauge-this-document = 占 16 MiB 上限的比例：此文档
gauge-largest-full = 占 16 MiB 上限的比例：全量时的最大文档
basis-exact = 精确算术
basis-estimate = 估算值：每个数组取最大值，其他字段取平均长度
largest-full-scale = 全量时最大：
sample-left-out = 省略了 { $count } 个元素或字段
sample-strings-cut = 截断了长字符串
sample-shortened = 为显示而缩短（{ $left }，以“…”标记）；大小和每个字段的字节数都按完整文档计算。
bytes-per-field = 每个字段的字节数
bytes-per-field-of = { $collection } 的样本文档每个字段的字节数
sample-largest-of = · 已采样 { $count } 个中最大的
sample-median-of = · 典型：已采样 { $count } 个的中位大小
sample-nearest-p50 = · 典型：已采样 { $count } 个中大小最接近表中中位数（{ $p50 }）的
sample-outside = 有 { $count } 个引用（{ $fields }）指向样本之外的文档（样本只含其中一部分）；其余引用都指向样本中的文档。
sample-every-element = · 此文档包含全部数组元素时：{ $approx }{ $bytes } B{ $exact }
exact-marker = （精确）
parenthesized = （{ $text }）

## Export (src/ui/playground/export.rs)

export-describe = { $collections } 个集合文件中共 { $documents } 个文档，总计 { $size }（{ $files } 个文件）
export-fix-first = 请先修正模型
export-title = 所选设计在评估样本规模下的文档，每个集合一个 mongoimport 文件，附 setup.js、workload.js、manifest.json 和 README：与 squillion export 的输出一致
export-preparing = 正在准备导出…
export-download = 下载导出文件（.zip）
export-failed = 导出失败：{ $error }

## Custom design's strategies (src/ui/playground/strategies.rs)

param-k = 保留的子文档数（k）
param-size = 桶大小
param-ids = 每个文档的 id 数
joins-application = 在应用程序中
joins-lookup = 使用 $lookup
strategies-heading = 自定义设计：每个关系一个策略
strategies-note = 没有覆盖的关系遵循基础设计。每次更改是一个撤销步骤。
base-design = 基础设计
base-design-hint = 没有覆盖的关系都采用它
joins = 连接
joins-hint = 每个集合一次查询，或一次 aggregate
no-relationships = 此模型没有关系：每个实体都是自己的集合。
not-whole-number = “{ $typed }”不是至少为 1 的整数。
from-base = 来自基础设计
reset-to-base-label = 将“{ $name }”重置为基础设计（{ $base }）
reset-to-base = 重置为基础设计
copies-child = { $child } 的字段复制到每个 id 旁
copies-parent = { $parent } 的字段复制到每个 { $child } 中
no-fields-to-copy = 没有可复制的字段。

## Model form (src/ui/editor/entities.rs, relationships.rs, workload.rs, inputs.rs, distribution.rs)

entities-heading = 实体
add-entity = + 添加实体
entity-name = 实体 { $n } 的名称
count-label = 数量
count-of = { $name } 的数量
delete = 删除
delete-entity = 删除实体 { $name }
fields-of = { $name } 的字段
field-col = 字段
type-col = 类型
optional-col = 可选
add-field = + 添加字段
sub-fields = { $count } 个子字段：请在 JSON 中编辑
array-of-objects = 对象数组，含 { $count } 个子字段：请在 JSON 中编辑
array-of = { $type } 数组
type-of = { $path } 的类型
field-name = { $entity } 的字段 { $name } 的名称
is-optional = { $path } 是可选的
move-up = 上移
move-down = 下移
move-field-up = 上移 { $entity } 的字段 { $name }
move-field-down = 下移 { $entity } 的字段 { $name }
delete-field = 删除字段
delete-field-of = 删除 { $entity } 的字段 { $name }
present-in = 出现比例（0–1）
presence-of = { $name } 的出现比例，0 到 1
length-label = 长度
length-of = { $name } 的长度
elements-label = 元素数
elements-of = { $name } 的元素数
relationships-heading = 关系
add-relationship = + 添加关系
no-relationships-yet = 还没有：关系说明每个父文档有多少个子文档。
relationship-name = 关系 { $n } 的名称
relationship-what = 关系 { $name }
delete-relationship = 删除关系 { $name }
parent-of = { $name } 的父实体
child-of = { $name } 的子实体
many-to-many = 多对多
feed-note = 信息流：作者把“{ $feed }”发给他们的粉丝。
children-per-parent = 每个父文档的子文档数
cardinality-of = { $name } 的基数
parents-per-child = 每个子文档的父文档数
parents-per-child-of = { $name } 的每个子文档的父文档数
grows-per-day = 每天增长
typical-label = 典型
largest-label = 最大
growth-typical-parent = 典型父文档每天新增的子文档数
growth-largest-parent = 最大父文档每天新增的子文档数
equals-typical = = 典型
workload-form-heading = 工作负载
add-operation = + 添加操作
no-operations-yet = 还没有：一个操作是一次用户动作及其速率。
operation-name = 操作 { $n } 的名称
per-second = 每秒
rate-of = 操作 { $n } 的每秒速率
operation-what = 操作 { $name }
delete-operation = 删除操作 { $name }
add-step = + 添加步骤
step-operation = 步骤 { $n } 的操作
step-target = 步骤 { $n } 作用的对象
step-what = 步骤 { $n }
delete-step = 删除步骤
delete-step-n = 删除步骤 { $n }
edit-in-json = 请在 JSON 中编辑这些
move-what-up = 上移 { $what }
move-what-down = 下移 { $what }
not-a-number = “{ $typed }”不是数字。
shape-default = 默认
shape-of = { $about } 的分布形状
shape-drawing = 形状：父文档按子文档从少到多排序；最右端是最大的
shape-drawing-title = 父文档按子文档从少到多排序；最右端是最大的

## Bytes of a document (src/ui/breakdown.rs)

part-names = 字段名
part-indexes = 数组下标
part-framing = 类型与框架
part-values = 值
composition = 文档字节的组成
part-bytes = { $label }：{ $bytes } 字节
treemap = 按字节划分的顶层字段矩形树图
treemap-cell = { $path }：{ $bytes } 字节（{ $share }）
breakdown-caption = 每个字段的字节数
col-path = 路径
col-type = 类型
col-key = 键
col-value = 值
col-total = 合计
col-share = 占比
more-rows = … 还有 { $count } 行未显示

## Shared

exact-bytes = { $bytes } 字节
dist-param-of = { $about } 的 { $param }
change-typing = 输入
change-form = 表单编辑
change-preset = 打开预设
change-import = 导入
change-link = 打开链接
change-restore = 恢复

## advise

advise-heading = 建议：适合这个负载的最佳设计
advise-close = 关闭
advise-close-label = 关闭设计顾问
advise-note = 这个模型能取的每个设计都先不经引擎筛选并按下面的权重排序；最好的几个和帕累托前沿再在引擎上运行，其中 5 年内不超过 16 MiB、且每一步都给出正确答案的设计里，实测工作量与存储代价最低的一个被推荐。分数是筛选相对范式化设计的排序，范式化设计只是标尺（它可能不可行）：低于 0 更省。原理见 docs/advisor.md。
advise-weights = 权重
advise-w-reads = 读
advise-w-writes = 写
advise-w-storage = 存储
advise-costs = 代价模型：每单位微秒
advise-costs-note = 引擎测得的每项数字的代价，命令行也可用代价文件设置；经引擎验证的设计按这些价格计价，最便宜的被推荐。来源见 docs/advisor.md。
advise-costs-reset = 恢复默认
advise-microseconds = 微秒
advise-cost-round-trip = 一次往返
advise-cost-key-examined = 检查一个索引键
advise-cost-doc-examined = 检查一个文档
advise-cost-byte-returned = 返回一个字节
advise-cost-doc-written = 写入一个文档
advise-cost-byte-written = 写入一个字节
advise-cost-index-key-written = 写入一个索引键
advise-cost-disk-read = 从磁盘读取一个文档
advise-run = 运行设计顾问
advise-progress = 设计顾问进度
advise-starting = 正在启动
advise-cancel = 取消
advise-stopped = 设计顾问已停止：{ $error }
advise-run-again = 重新运行
advise-stale = 模型在这条建议之后已更改。
advise-no-schedule = 页面无法安排设计顾问运行
advise-unreadable = 无法读取的建议（{ $error }）
advise-no-advice = 工作线程没有返回建议
advise-searched-all = 已筛选全部 { $space } 个设计中的 { $explored } 个（穷举），用时 { $seconds } s：{ $feasible } 个可行，{ $infeasible } 个不可行。
advise-searched-local = 已探索 { $space } 个设计中的 { $explored } 个（局部搜索），用时 { $seconds } s：{ $feasible } 个可行，{ $infeasible } 个不可行。
advise-searched-invalid = { $invalid } 个无法布局。
advise-recommended = 推荐：{ $label }
advise-none = 没有可行的设计：每个设计都会在期限内突破某个限制。
advise-apply = 应用
advise-applied = 已应用
advise-apply-n = 应用设计 { $rank }
advise-apply-title = 把它设为自定义设计：{ $design }
advise-why = 原因
advise-why-none = 无可选择：每个关系只有一个选项。
advise-flips = 选择在何处翻转
ratio-chart-aria = 推荐设计与最接近它的设计在不同读写比下的决策得分
ratio-chart-x = 每次写入对应的读取次数（对数刻度）
ratio-chart-y = 得分（越低越好）
ratio-chart-today = 当前：{ $ratio }
ratio-chart-flip = { $design } 在每次写入对应 { $ratio } 次读取时与推荐设计持平
ratio-chart-caption = 每条线是一个设计的决策得分：所有读取速率按同一倍数缩放，写入不变；某条线与推荐设计的线相交之处，就是选择翻转之处。
advise-best = 最佳设计
advise-col-design = 设计
advise-col-score = 相对范式化的分数
advise-col-score-title = 成本与范式化设计之比的加权对数：负数更省，越低越好
advise-col-reads = 读/s
advise-col-writes = 写/s（文档 + 键）
advise-col-writes-title = 每秒写入的文档加索引键
advise-col-storage = 存储（数据 + 索引）
advise-col-storage-title = 数据加索引的字节数
advise-col-engine = 引擎结果
advise-badge-recommended = 推荐
advise-writes-cell = { $docs } 个文档 + { $keys } 个索引键
advise-storage-cell = 数据 { $data } + 索引 { $indexes }
advise-disagree = 引擎与筛选在 { $count } 个数字上不一致
advise-disagreement = { $design }：{ $figure } 筛选值 { $screened }，引擎值 { $engine } { $note }
advise-verified = 已验证，可行
advise-infeasible = 不可行：{ $limits }
advise-refused = 有命令被拒绝
advise-failed = 失败：{ $error }
advise-not-run = 未运行
front-aria = 帕累托前沿：读成本对写成本；点的大小是含索引的存储
front-x-axis = 每秒读往返次数 →
front-y-axis = 每秒写入（文档 + 索引键）→
front-point = #{ $rank } { $label }：每秒 { $reads } 次读往返，每秒写入 { $docs } 个文档和 { $keys } 个索引键，存储 { $data }，索引 { $indexes }；分数 { $score }。应用为自定义设计。
front-point-recommended = #{ $rank } { $label }（推荐）：每秒 { $reads } 次读往返，每秒写入 { $docs } 个文档和 { $keys } 个索引键，存储 { $data }，索引 { $indexes }；分数 { $score }。应用为自定义设计。
front-caption = 帕累托前沿：{ $count } 个设计在读、写（文档与索引键）和存储（数据与索引）上不会同时被其他设计超过。点越大存储越多；实心为推荐。点击一个点即可应用。
front-log-note = 数字跨度超过一百倍时使用对数刻度。

## infer

infer-title = 从你的数据开始
infer-intro = 从 mongoexport（.json、.ndjson）或 mongodump 文件（.bson 及其 .metadata.json，或 --archive 归档；gzip 压缩与否均可）、SQL 模式（.sql），或粘贴的文档或 DDL 推断模型；再加上 mongod 日志（文本或 JSON，gzip 压缩与否均可）或 system.profile 导出，其中的操作及其频率即成为工作负载。一切都在你的浏览器中读取：不会离开浏览器。
infer-drop = 把文件拖到这里，或
infer-choose = 选择文件…
infer-choose-label = 选择数据文件
infer-files-label = 待读取的文件
infer-kind-documents = 文档 → { $collection }
infer-kind-dump = mongodump → { $collection }
infer-kind-archive = mongodump 归档：其中的每个集合
infer-kind-metadata = { $collection } 的索引
infer-kind-sql = SQL 模式
infer-kind-log-or-documents = mongod 日志，或文档 → { $collection }：由其内容判断
infer-log-read = 读取的日志
infer-log-shapes = 日志中的操作及其给模型的工作负载
infer-log-refused = 未进入工作负载（模型拒绝）
infer-log-skipped = 跳过的操作（按原因）
infer-log-assumed = 对日志的假定
infer-log-bad-line = 日志中有 { $count } 行无法读取（已跳过，其余照常读取）
infer-log-bad-lines = 日志中有 { $count } 行无法读取（已跳过，其余照常读取）
infer-log-bad = 无法读取的行
infer-remove = 移除
infer-remove-label = 移除 { $name }
infer-paste-label = 或粘贴文档（每行一个、一个 JSON 数组、多行排版或 mongosh 的输出）或 DDL（CREATE TABLE …）
infer-collection-label = 粘贴文档所属的集合
infer-counts-label = 全量规模的数量（可选）
infer-counts-placeholder = users=30000000, orders=5000000
infer-run = 推断模型
infer-cancel = 取消
infer-bytes-read = 已读取字节
infer-reading = 正在读取 { $file }：{ $done } / { $total }
infer-starting = 正在加载推断工具…
infer-failed = 未推断出任何内容：{ $why }。你的模型未改变。
infer-cancelled = 已取消。你的模型未改变。
infer-nothing = 请先拖入或选择文件，或粘贴文档或 DDL
infer-pasted = 粘贴的文本
infer-inputs = { $count } 个输入
infer-summary-title = 模型已在编辑器中打开（Ctrl+Z 可恢复你原来的模型）
infer-read = 已读取
infer-tables = 表
infer-entities = 实体
infer-relationships = 关系（按数据中的布局）
infer-assumed = 假设
infer-indexes = 索引
infer-workload = 假设的工作负载
infer-skipped-statement = 跳过 { $count } 条语句
infer-skipped-statements = 跳过 { $count } 条语句
infer-skipped-line = 跳过 { $count } 行
infer-skipped-lines = 跳过 { $count } 行
infer-skipped = 已跳过
infer-link-attributes = 未带入模型的关联属性
infer-done = 完成
infer-no-worker = 无法启动工作线程（{ $error }）；推断需要它
infer-stopped = 推断已停止（{ $error }）
infer-no-model = 工作线程没有返回模型
infer-worker-failed = 工作线程无法启动
infer-not-handed = 无法把文件交给工作线程（{ $error }）

## strategies

strategy-embed = 内嵌
strategy-embed-subset = 内嵌子集
strategy-extended-reference = 扩展引用
strategy-reference-in-parent = 父文档中引用
strategy-reference-in-child = 子文档中引用
strategy-two-way = 双向引用
strategy-link-collection = 关联集合
strategy-bucket = 分桶
strategy-continuation = 连续文档
strategy-fan-out-on-read = 读时扇出
strategy-fan-out-on-write = 写时扇出
strategy-bucketed-fan-out = 分桶扇出
strategy-time-series = 时间序列
strategy-parent-references = 父引用
strategy-child-references = 子引用
strategy-array-of-ancestors = 祖先数组
strategy-materialized-paths = 物化路径
strategy-nested-sets = 嵌套集合
strategy-single-collection = 单集合模式

## The Diagram view beside the collection cards (src/ui/playground/diagram.rs)

results-view = 结果显示的内容
results-collections = 集合
results-collections-title = 每个集合一张卡片：数量、尺寸、突破点、索引
results-diagram = 结构图
results-diagram-title = 所选设计的结构图：每个集合一个方框，含其文档形状、索引和数据，以及集合之间的引用（与命令 squillion diagram 输出的 SVG 一致）
diagram-loading = 正在加载结构图工具…
diagram-drawing = 正在绘制结构图…
diagram-failed = 无法绘制结构图：{ $error }
diagram-stopped = 结构图工具已停止（{ $error }）；切换设计或编辑模型后可重试
diagram-no-worker = 页面无法启动结构图工具（{ $error }）
diagram-worker-failed = 无法加载结构图工具
diagram-caption = { $design }：其集合、内嵌于其中的文档以及集合之间的引用
diagram-download-svg = 下载 SVG
diagram-download-svg-title = 以 SVG 文件下载结构图，与命令 squillion diagram 输出的 SVG 一致
diagram-download-png = 下载 PNG
diagram-download-png-title = 以 PNG 图片下载结构图，尺寸为屏幕上的两倍
diagram-png-failed = 无法生成 PNG：{ $error }
diagram-changes = 与 { $design } 相比：✚ 新增：{ $added } · ± 改变：{ $changed } · 不再有：{ $gone }
diagram-no-changes = 与 { $design } 的集合、字段和索引相同
diagram-model-caption = { $model }：任何设计之前的实体及其之间的关系
diagram-model-note = 任何设计之前的模型：每个实体一个框，含其数量和字段；每个关系一个箭头，两端标出数量，并注明增长。集合卡片旁的“结构图”视图绘制每个设计的集合。

# “迁移”面板（src/ui/playground/migrate.rs）：从一个设计到另一个设计的计划，与 squillion migrate 相同（docs/migrate.md）；步骤的文字来自 messages.ftl。
migrate-button = 迁移…
migrate-title = 规划把数据从一个设计迁移到另一个设计：每一步都是 mongosh 脚本，附全量规模的代价，并已在引擎上检查（squillion migrate）
migrate-heading = 迁移
migrate-note = 每一步都是一条 mongosh 命令；回填按父文档 _id 的可续跑批次运行。计划在显示之前已在源设计的样本上运行过。参考：docs/migrate.md
migrate-from = 从
migrate-to = 到
migrate-same = 请选择两个不同的设计。
migrate-worker-failed = 无法加载迁移工具
migrate-planning = 正在规划迁移并在引擎上检查…
migrate-refused = 未规划：{ $why }
migrate-failed = 无法规划迁移：{ $error }
migrate-dual-writes = 从第一次回填到切换期间的双写
migrate-download-script = 下载 migrate.js
migrate-download-script-title = 整个计划合成一个 mongosh 脚本（FROM_STEP 和 TO_STEP 运行其中一部分；AFTER 从中断处继续回填），与 squillion migrate --out 写出的相同
migrate-download-plan = 下载 plan.json
migrate-download-plan-title = 计划及其检查结果的 JSON，即 squillion migrate --json 的输出
migrate-close = 关闭
migrate-close-label = 关闭“迁移”面板
migrate-to-winner = 迁移到 { $design }…
