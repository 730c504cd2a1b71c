// Pieces moving in the 3-D view (Viewer.showSolution's motion): which pieces move, and where
// they are drawn at a moment of the motion, as an offset from their place in cells.

/** The instances a motion moves. */
export function movingInstances(m) {
  return new Set(m.instances || [m.instance]);
}

/**
 * The offset of the moving pieces at the motion's time m.t (0..1): along m.path (arriving: eased
 * out, so the piece settles; leaving: eased in, so it starts gently), or without a path straight
 * down from `lift` cells above (or up to it when leaving), eased out.
 */
export function motionOffset(m, lift) {
  const ease = 1 - (1 - m.t) ** 3;
  if (!m.path) return [0, 0, lift * (m.leaving ? ease : 1 - ease)];
  return alongPath(m.path, m.leaving ? m.t ** 2 : ease);
}

/** The point at fraction f (0..1) of the way along a path of points, by length. */
export function alongPath(path, f) {
  const seg = [];
  let total = 0;
  for (let j = 1; j < path.length; j++) {
    const d = Math.hypot(path[j][0] - path[j - 1][0], path[j][1] - path[j - 1][1], path[j][2] - path[j - 1][2]);
    seg.push(d);
    total += d;
  }
  let left = Math.max(0, Math.min(1, f)) * total;
  for (let j = 1; j < path.length; j++) {
    if (left <= seg[j - 1] || j === path.length - 1) {
      const u = seg[j - 1] > 0 ? Math.min(1, left / seg[j - 1]) : 1;
      return [0, 1, 2].map((a) => path[j - 1][a] + (path[j][a] - path[j - 1][a]) * u);
    }
    left -= seg[j - 1];
  }
  return path[path.length - 1].slice();
}
