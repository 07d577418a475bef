/** A point or direction in world space: [x, y, z], y up (Recast's convention). */
export type Vec3 = [number, number, number];
