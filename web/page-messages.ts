/**
 * Page prose for the explainer page (web/): everything the page shows that is not a table, a
 * readout label or a self-check label (those live in ../i18n.ts). Chinese first (the lesson's
 * language), English with exactly the same keys; `{name}` marks a value filled in at run time.
 * Pure data plus one lookup: no imports, browser-safe.
 */

export type PageLang = "zh" | "en";

const zh = {
  "page.doc.title": "从格到面 · meshway",
  "page.title": "从格到面",
  "page.subtitle": "导航网格为什么能用：四步，每一步都由 meshway 在你的浏览器里现场量出来",
  "page.lede":
    "在方格上找路，数、方向和人都待在格子里。可真实关卡的地面是任意形状：格子要么太粗，贴墙走都表达不了；要么太细，节点多得走不动。这一课把承载路径的东西从“格”换成“面”——先把场景切成格、滤掉 agent 挤不进的地方，再把剩下的可走面切成凸多边形，最后在多边形组成的图上找路并拉直。",
  "page.roadmap":
    "每一段都把同一件事做两遍：一遍是最朴素的做法（简单方法），一遍是 meshway 真正的流水线（体素距离场腐蚀、区域 → 轮廓 → 凸多边形、funnel）。两边的差别都写成数字，放在同一张表里。",
  "page.nav.title": "分段",
  "page.controls.title": "控制",
  "page.controls.reset": "复位",
  "page.controls.shape": "拿哪个形状试凸性",
  "page.shape.square": "正方形（凸）",
  "page.shape.L": "L 形（凹）",
  "page.controls.radius": "agent 半径",
  "page.controls.view": "路径显示",
  "page.view.midpoint": "穿过 portal 中点的折线",
  "page.view.straight": "拉直之后",
  "page.controls.method": "方法",
  "page.method.simple": "简单方法",
  "page.method.meshway": "meshway 流水线",
  "page.controls.lang": "语言",
  "page.lang.zh": "中文",
  "page.lang.en": "英文",
  "page.settings":
    "当前：半径 {radius} · 形状 {shape} · 方法 {method} · 路径 {view}（第 {generation} 次计算）",
  "page.hover.title": "定点观察",
  "page.hover.idle": "把鼠标移到任一画面上，这里会报出那一点所在的格和多边形。",
  "page.hover.outside": "{section}：{outside}。",
  "page.hover.shape": "{section}：x = {x}，z = {z} · {where}",
  "page.hover.shapeName.square": "正方形",
  "page.hover.shapeName.L": "L 形",
  "page.hover.at": "{section}（{panel}）：x = {x}，z = {z} · {cell} · {walkable} · {polygon}",
  "page.fallback":
    "这台设备拿不到 canvas 2D 绘图上下文，所以画面显示不出来。下面的文字、读数和四张表照常计算、照常更新——画面只是把同一份数据画出来而已。",
  "page.readouts.title": "读数",
  "page.section.gap": "上一步留下的缺口",
  "page.section.adds": "这一步只增加一样东西",
  "page.section.observe": "动手看",
  "page.s1.title": "① 为什么必须是凸的",
  "page.s1.gap":
    "格子只能说“这一格能不能走”，说不了“贴着墙走”“斜穿走廊”。要换成面，第一件事是定下面该是什么形状。",
  "page.s1.adds":
    "凸多边形：面内任意两点的连线都不离开这个面。用两种互相独立的方法检验——相邻两条边的叉积是否同号；在面内随机取 1000 对点，每条连线采样 256 个点，数有多少对跑出了面。",
  "page.s1.observe":
    "在“正方形 / L 形”之间切换，看画面上的 60 条采样连线里有没有被标亮的（离开了形状）。凸性保证同一个面里任意两点可以直线相连，后面拉直路径靠的正是这一点。",
  "page.s2.title": "② 从体素到可走面",
  "page.s2.gap":
    "形状定了，可数据还是一堆三角形，不是多边形。得先把空间变成一张能回答“这里能不能站人”的格子图。",
  "page.s2.adds":
    "体素化加按半径过滤：格心落在障碍里的格记为不可走；再去掉离障碍太近、agent 挤不进去的格。简单方法按格心到障碍的连续距离判断；meshway 在同一场景的三角网格上建体素距离场再腐蚀。画面显示“方法”选中的那一边，两边结果不同的格用品红小方块标出；表②把两边并排列出，并数出不同的格。",
  "page.s2.observe":
    "把半径从 0.25 拖到 1.50，看可走面怎样变窄、窄道在哪个半径被封死。半径是烘焙进可走面的，后面的划分和找路都建在这张已经变窄的面上。",
  "page.s3.title": "③ 切成多边形",
  "page.s3.gap":
    "过滤后还剩几百到上千个可走格。把每个格当成图的节点，比直接在方格上找路还要糟——必须把它们压成少量的面。",
  "page.s3.adds":
    "划分：简单方法把可走格切成极大矩形（先向右长到头，再整行向下长）；meshway 走真实流程：区域 → 轮廓 → 凸多边形。检查三件事：面积恰好盖满、每个面都是凸的、相邻的面共享一段有长度的边，而不是只碰一个点。",
  "page.s3.observe":
    "找两块颜色的交界，看它是一段线还是一个点。一个点当不了 portal，agent 也穿不过去，所以能走的交界必须是一段线。meshway 的多边形常在一个顶点处几块相会（红点）：这些点周围的多边形两两之间另有线段相连，不算问题；真正不许出现的是掐点——只在一个点相接、周围也连不起来的两块，两边的这一项都必须是 0。",
  "page.s4.title": "④ 在面上找路",
  "page.s4.gap": "面切好了，但面还不是路：得知道面和面怎样相连，连起来以后具体怎么走。",
  "page.s4.adds":
    "把多边形当节点、共享的边当 portal，在多边形图上跑 A*，得到一串多边形；先用穿过各 portal 中点的折线连起来，再拉直：简单方法反复删掉能被捷径替代的点，meshway 用 funnel 算法。最后用 meshway 的 findShortestPath 求出同一块可走面上真正的最短路（紫线），拿来衡量前面的拉直差多少：meshway 方法在它的导航网格上求；简单方法在同一批可走格拼成的导航网格上求（和矩形是同一块面）。",
  "page.s4.observe":
    "在“中点折线 / 拉直之后”之间切换，看路径在拐角处是擦着墙角过去，还是绕到多边形中间。拉直之后必须再也删不掉任何点，而且每个采样点都留在可走面上。紫线是精确最短路：蓝线和它重合，说明拉直已经最短；蓝线绕远，读数“拉直后比精确最短路长”给出差多少。",
  "page.honest.title": "如实说明：简单方法与 Recast/Detour 的差别",
  "page.honest.1":
    "障碍只用轴对齐的矩形，这样“点在不在障碍里”和“点离障碍多远”都能精确算出。meshway 接受任意三角网格：同一场景也被做成三角网格（地面加障碍盒子）送进真实流水线。",
  "page.honest.2":
    "简单过滤按格心到障碍的精确距离删格，半径是多少就按多少算；Recast 和 meshway 先把半径向上取整成整数个体素（0.5 的格上，0.75 就是 2 格），再在体素距离场上按体素步数腐蚀，可走面的每条边（包括世界的边界）都会往里收。这个距离场是近似的：斜走一步只算直走的 1.5 倍（Recast 的 2/3 步长），障碍角斜对面的格会显得比实际远。所以两边谁删得多要看半径：0.25、0.55–0.75、1.05–1.25 时 meshway 删得更多；0.30–0.35、0.80–1.00、1.30–1.45 时两边完全一样；0.40–0.50 和 1.50 时 meshway 反而留下更多格，其中有格心离障碍不到半径的（0.40–0.50 时最近 0.3536，1.50 时最近 1.4577）。第 ② 段把两边结果不同的格数出来，表②列出两边的最小距离。",
  "page.honest.3":
    "简单划分是极大矩形；Recast 和 meshway 先用分水岭把可走面分成区域，描出并简化轮廓，再三角化并合并成凸多边形，所以多边形更少、形状不限于矩形，面积也只是近似等于格数乘格面积。",
  "page.honest.4":
    "简单拉直是逐点试删，直到删不动；Detour 和 meshway 用 funnel 沿 portal 一次拉直。两者都不保证是全局最短路径：A* 先选定了多边形序列，拉直只在这串多边形里进行。meshway 的 findShortestPath（仿 Polyanya 的任意角度搜索）求的是精确最短路；这里用紫线画出，并检查它不比任何一条拉直的路径长。",
  "page.honest.5":
    "这一课是平面的：只有一层地面、没有台阶和坡。Recast 和 meshway 的真实流水线还处理高度、坡度、台阶和多层结构。画面由 meshway 自己的软件光栅器画出，与命令行 meshway lesson --png 输出的像素一致。",
  "page.legend.title": "图例",
  "page.checks.title": "本页自检",
  "page.checks.summary": "{pass} / {total} 项通过",
  "page.checks.allPass": "全部通过",
  "page.checks.someFail": "有 {fail} 项未通过",
  "page.checks.pass": "通过",
  "page.checks.fail": "未通过",
  "page.checks.measured": "实测：{value}",
  "page.checks.expected": "要求：{value}",
  "page.log.title": "执行日志",
  "page.error": "计算出错：{message}",
  "page.footer":
    "本页的每个数字都是刚才在你的浏览器里由 meshway 算出来的。命令行 meshway lesson 用同一份代码打印同样的四张表。",
} as const;

export type PageMessageKey = keyof typeof zh;

const en: Record<PageMessageKey, string> = {
  "page.doc.title": "From cells to faces · meshway",
  "page.title": "From cells to faces",
  "page.subtitle":
    "Why navigation meshes work, in four steps, each one measured live in your browser by meshway",
  "page.lede":
    "Path finding on a grid keeps the numbers, the directions and the walker in the cells. Real level floors have any shape: cells are either too coarse to say “walk along the wall”, or so fine that the graph becomes huge. This lesson moves the path from cells to faces: cut the scene into cells and drop the ones the agent cannot fit into, cut what remains into convex polygons, then search the polygon graph and straighten the result.",
  "page.roadmap":
    "Every step is done twice: once the plainest way (the simple method) and once with meshway's real pipeline (voxel distance-field erosion, regions → contours → convex polygons, the funnel). Where they differ, the difference is a number in the same table.",
  "page.nav.title": "Sections",
  "page.controls.title": "Controls",
  "page.controls.reset": "Reset",
  "page.controls.shape": "Shape for the convexity test",
  "page.shape.square": "Square (convex)",
  "page.shape.L": "L shape (concave)",
  "page.controls.radius": "Agent radius",
  "page.controls.view": "Path shown",
  "page.view.midpoint": "Polyline through portal midpoints",
  "page.view.straight": "Straightened",
  "page.controls.method": "Method",
  "page.method.simple": "Simple method",
  "page.method.meshway": "meshway pipeline",
  "page.controls.lang": "Language",
  "page.lang.zh": "Chinese",
  "page.lang.en": "English",
  "page.settings":
    "Now: radius {radius} · shape {shape} · method {method} · path {view} (computation {generation})",
  "page.hover.title": "Point probe",
  "page.hover.idle": "Move the pointer over any picture to see the cell and polygon under it.",
  "page.hover.outside": "{section}: {outside}.",
  "page.hover.shape": "{section}: x = {x}, z = {z} · {where}",
  "page.hover.shapeName.square": "square",
  "page.hover.shapeName.L": "L shape",
  "page.hover.at": "{section} ({panel}): x = {x}, z = {z} · {cell} · {walkable} · {polygon}",
  "page.fallback":
    "This device gives no canvas 2D drawing context, so the pictures cannot be shown. The text, the readouts and all four tables below are still computed and kept up to date: the pictures only draw the same data.",
  "page.readouts.title": "Readouts",
  "page.section.gap": "What the previous step left open",
  "page.section.adds": "What this step adds",
  "page.section.observe": "Try it",
  "page.s1.title": "1 · Why convex",
  "page.s1.gap":
    "A cell can only say whether it is walkable; it cannot say “walk along the wall” or “cut across the corridor”. To move to faces we first have to decide what shape a face must have.",
  "page.s1.adds":
    "Convex polygons: the segment between any two points of the face stays inside it. Two independent tests check it: the cross products of consecutive edges all have the same sign; and 1000 random point pairs inside the shape, each segment sampled at 256 points, counting the pairs that leave the shape.",
  "page.s1.observe":
    "Switch between square and L shape and look for highlighted segments among the 60 drawn: those leave the shape. Convexity means any two points of one face are joined by a straight line, which is exactly what straightening the path relies on later.",
  "page.s2.title": "2 · From voxels to a walkable surface",
  "page.s2.gap":
    "The shape is settled, but the data is still a heap of triangles, not polygons. First the space has to become a grid that answers “can someone stand here?”.",
  "page.s2.adds":
    "Voxelizing and filtering by radius: a cell whose centre lies inside an obstacle is blocked; then the cells too close to an obstacle for the agent to fit are removed. The simple method uses the exact distance from the cell centre to the nearest obstacle; meshway builds a voxel distance field on the scene's triangle mesh and erodes it. The picture shows the method picked with the Method control and marks in magenta the cells where the two disagree; table ② puts both side by side and counts those cells.",
  "page.s2.observe":
    "Drag the radius from 0.25 to 1.50 and watch the walkable surface shrink and the narrow passage close. The radius is baked into the surface: the partition and the path are both built on the shrunken surface.",
  "page.s3.title": "3 · Cut into polygons",
  "page.s3.gap":
    "After filtering, hundreds of walkable cells remain. Using every cell as a graph node would be worse than searching the grid directly: they must be merged into a few faces.",
  "page.s3.adds":
    "A partition: the simple method cuts the walkable cells into maximal rectangles (grow right as far as possible, then grow the whole run down); meshway runs the real pipeline: regions → contours → convex polygons. Three things are checked: the area is covered exactly, every face is convex, and neighbouring faces share an edge of positive length rather than a single point.",
  "page.s3.observe":
    "Find a place where two colours meet and check whether they meet along a segment or at a point. A point cannot be a portal and an agent cannot pass through it, so a usable join must be a segment. meshway's polygons often meet several at one vertex (red dots); that is harmless, because the polygons around such a point are joined to each other by segments. What must never happen is a pinch: two faces touching at a single point with no segment around it. Both methods must count 0 pinches.",
  "page.s4.title": "4 · Find a path on faces",
  "page.s4.gap":
    "The faces are cut, but faces are not yet a path: we need to know how faces connect and how to walk across them.",
  "page.s4.adds":
    "Polygons become graph nodes and shared edges become portals; A* over this graph gives a sequence of polygons. They are first joined by the polyline through the portal midpoints, which is then straightened: the simple method keeps dropping points that a shortcut can replace, meshway uses the funnel algorithm. Finally meshway's findShortestPath computes the truly shortest path on the same walkable surface (purple) as a yardstick for the straightening: on meshway's navmesh for the meshway method, and for the simple method on a navmesh made of the same kept cells (the very surface the rectangles cover).",
  "page.s4.observe":
    "Switch between the midpoint polyline and the straightened path and see whether the path brushes past the corners or swings through the middle of the polygons. After straightening no point may be removable any more, and every sample of the path must stay on the walkable surface. The purple line is the exact shortest path: where the blue line runs along it, straightening was already optimal; where the blue line takes a longer way, the readout “straightened path longer than the exact one by” says by how much.",
  "page.honest.title": "Honest differences: the simple methods versus Recast/Detour",
  "page.honest.1":
    "Obstacles are axis-aligned rectangles only, so “is this point inside an obstacle” and “how far is it from one” are exact. meshway takes any triangle mesh: the same scene is also built as a triangle mesh (floor plus obstacle boxes) and sent through the real pipeline.",
  "page.honest.2":
    "The simple filter removes a cell when its centre is closer than the radius to an obstacle, using the exact distance and the exact radius. Recast and meshway round the radius up to whole voxels (on 0.5 cells, 0.75 becomes 2 voxels) and erode along a voxel distance field measured in voxel steps, from every edge of the walkable area, the world's border included. That distance field is approximate: a diagonal step counts as only 1.5 straight steps (Recast's 2/3 weights), so a cell diagonal to an obstacle corner looks farther away than it is. Which side removes more therefore depends on the radius: at 0.25, 0.55–0.75 and 1.05–1.25 meshway removes more; at 0.30–0.35, 0.80–1.00 and 1.30–1.45 both agree exactly; at 0.40–0.50 and 1.50 meshway keeps more cells, some with a centre closer than the radius to an obstacle (nearest 0.3536 at 0.40–0.50, 1.4577 at 1.50). Section 2 counts the cells where the two disagree, and table ② lists both smallest distances.",
  "page.honest.3":
    "The simple partition uses maximal rectangles; Recast and meshway split the walkable surface into regions with a watershed, trace and simplify their contours, then triangulate and merge them into convex polygons. That gives fewer polygons, not limited to rectangles, whose area only approximately equals the walkable cells times the cell area.",
  "page.honest.4":
    "The simple straightening drops points one at a time until none can go; Detour and meshway straighten along the portals in one pass with the funnel algorithm. Neither is guaranteed to be the globally shortest path: A* fixes the polygon sequence first and straightening stays inside it. meshway's findShortestPath (an any-angle search in the style of Polyanya) finds the exact shortest path; here it is drawn in purple and checked to be no longer than either straightened path.",
  "page.honest.5":
    "This lesson is flat: one floor, no steps or slopes. The real Recast and meshway pipelines also handle heights, slopes, steps and overlapping floors. The pictures are drawn by meshway's own software rasterizer, with exactly the pixels of the command line's meshway lesson --png.",
  "page.legend.title": "Legend",
  "page.checks.title": "Self-check",
  "page.checks.summary": "{pass} / {total} passed",
  "page.checks.allPass": "all passed",
  "page.checks.someFail": "{fail} failed",
  "page.checks.pass": "pass",
  "page.checks.fail": "FAIL",
  "page.checks.measured": "measured: {value}",
  "page.checks.expected": "required: {value}",
  "page.log.title": "Execution log",
  "page.error": "The computation failed: {message}",
  "page.footer":
    "Every number on this page was computed just now in your browser by meshway. On the command line, meshway lesson prints the same four tables from the same code.",
};

/** Page prose in both languages (same key sets; a test checks it). */
export const PAGE_MESSAGES: {
  zh: Record<PageMessageKey, string>;
  en: Record<PageMessageKey, string>;
} = { zh, en };

/** True when `key` is one of the page's own messages (the rest come from the lesson's MESSAGES). */
export function isPageMessageKey(key: string): key is PageMessageKey {
  return Object.hasOwn(zh, key);
}

/** The page message `key` in `lang`, with `{name}` replaced by `vars[name]` (unknown names kept). */
export function pageText(
  lang: PageLang,
  key: PageMessageKey,
  vars?: Readonly<Record<string, string | number>>,
): string {
  const template = PAGE_MESSAGES[lang][key];
  if (!vars) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(vars, name) ? String(vars[name]) : whole,
  );
}
