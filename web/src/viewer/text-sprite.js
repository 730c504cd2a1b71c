// A word in the 3-D view as a sprite that always faces the camera: light text on a dark round
// tag, drawn on a canvas (text in a texture, never HTML). The pieces' name tags and the
// coordinates along a board's edges are made here, so that both read alike.
//
//   const sprite = textSprite('B3', { height: 0.4 });   // 0.4 cells high
//   scene.add(sprite); ... sprite.material.map.dispose(); sprite.material.dispose();
import { CanvasTexture, LinearFilter, SRGBColorSpace, Sprite, SpriteMaterial } from 'three';

/**
 * @param {string} text
 * @param {{height?: number, depthTest?: boolean, renderOrder?: number}} opts height in world
 *   units (cells); depthTest false draws it through whatever stands in front of it
 */
export function textSprite(text, { height = 0.5, depthTest = true, renderOrder = 10 } = {}) {
  const px = 48;
  const c = document.createElement('canvas');
  const ctx = c.getContext('2d');
  const font = `700 ${px}px system-ui, sans-serif`;
  ctx.font = font;
  const w = Math.ceil(ctx.measureText(text).width) + px * 0.7;
  c.width = Math.max(px * 1.2, w);
  c.height = Math.round(px * 1.35);
  ctx.font = font;
  ctx.fillStyle = 'rgba(10, 14, 24, 0.78)';
  ctx.beginPath();
  ctx.roundRect(0, 0, c.width, c.height, c.height / 2.6);
  ctx.fill();
  ctx.fillStyle = '#ffffff';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, c.width / 2, c.height / 2 + px * 0.04);
  const tex = new CanvasTexture(c);
  tex.colorSpace = SRGBColorSpace;
  tex.minFilter = LinearFilter;
  const sprite = new Sprite(new SpriteMaterial({ map: tex, depthTest, depthWrite: false, transparent: true }));
  sprite.scale.set((height * c.width) / c.height, height, 1);
  sprite.renderOrder = renderOrder;
  return sprite;
}
