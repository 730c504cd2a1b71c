// What a step of a replayed search looks like on top of the board (the viewer draws the placed
// pieces): the target cell the search chose (a bright frame), the candidate images it will try
// (faint ghosts), and at a dead end the cells concerned (the unfillable hole, the isolated
// region) in red with a label saying why; on request the cell the most-constrained-hole rule
// would fill next (a cyan frame), and the dark cells of the checkerboard colouring (lesson 4).
//
//   const layer = new WatchLayer(viewer, labelElement);
//   layer.show({ puzzle, target, candidateCells, deadCells, label, mchCell, shadeCells });   // or layer.show(null)
import { BoxGeometry, EdgesGeometry, InstancedMesh, LineBasicMaterial, LineSegments, Matrix4, MeshLambertMaterial, Vector3 } from 'three';

export class WatchLayer {
  constructor(viewer, label) {
    this.viewer = viewer;
    this.label = label;
    this.objects = [];
    this.ghostMaterial = new MeshLambertMaterial({ color: 0xffffff, transparent: true, opacity: 0.18, depthWrite: false });
    this.deadMaterial = new MeshLambertMaterial({ color: 0xff4d5e, transparent: true, opacity: 0.5, depthWrite: false });
    this.frameMaterial = new LineBasicMaterial({ color: 0xffd23f });
    this.mchMaterial = new LineBasicMaterial({ color: 0x3ee0ff });
    this.shadeMaterial = new MeshLambertMaterial({ color: 0x000000, transparent: true, opacity: 0.45, depthWrite: false });
    this.anchor = null;
    viewer.controls.addEventListener('change', () => this.placeLabel());
  }

  centre(puzzle, cell) {
    const x = cell % puzzle.xDim, y = Math.floor(cell / puzzle.xDim) % puzzle.yDim, z = Math.floor(cell / (puzzle.xDim * puzzle.yDim));
    return new Vector3(x + 0.5, y + 0.5, puzzle.zDim === 1 ? 0.5 : z + 0.5);
  }

  cells(puzzle, cells, material, size) {
    if (!cells.length) return;
    const mesh = new InstancedMesh(new BoxGeometry(size, size, puzzle.zDim === 1 ? 0.6 : size), material, cells.length);
    const m = new Matrix4();
    cells.forEach((c, k) => mesh.setMatrixAt(k, m.makeTranslation(this.centre(puzzle, c))));
    mesh.renderOrder = 3;
    this.add(mesh);
  }

  add(obj) {
    this.objects.push(obj);
    this.viewer.scene.add(obj);
  }

  /**
   * @param {{puzzle, target?: number, candidateCells?: number[], deadCells?: number[], label?: string,
   *   mchCell?: number, shadeCells?: number[]}|null} view
   */
  show(view) {
    for (const o of this.objects) {
      this.viewer.scene.remove(o);
      o.geometry.dispose();
      if (o.dispose) o.dispose();
    }
    this.objects = [];
    this.anchor = null;
    if (view) {
      const { puzzle } = view;
      const deadCells = view.deadCells || [];
      const target = view.target ?? -1;
      this.cells(puzzle, view.candidateCells || [], this.ghostMaterial, 0.7);
      this.cells(puzzle, deadCells, this.deadMaterial, 0.96);
      this.cells(puzzle, view.shadeCells || [], this.shadeMaterial, 1.01);
      if (target >= 0) this.frame(puzzle, target, this.frameMaterial, 1.02);
      if (view.mchCell >= 0) this.frame(puzzle, view.mchCell, this.mchMaterial, 0.9);
      const at = deadCells.length ? deadCells[0] : target >= 0 ? target : view.mchCell ?? -1;
      if (view.label && at >= 0) this.anchor = this.centre(puzzle, at);
      this.label.textContent = view.label || '';
    }
    this.placeLabel();
    this.viewer.requestRender();
  }

  frame(puzzle, cell, material, size) {
    const frame = new LineSegments(new EdgesGeometry(new BoxGeometry(size, size, puzzle.zDim === 1 ? 0.7 : size)), material);
    frame.position.copy(this.centre(puzzle, cell));
    frame.renderOrder = 4;
    this.add(frame);
  }

  /** Keep the label over its cell as the view turns. */
  placeLabel() {
    if (!this.anchor || !this.label.textContent) {
      this.label.hidden = true;
      return;
    }
    const v = this.anchor.clone().project(this.viewer.camera);
    this.label.hidden = false;
    // centred over its cell, but kept inside the view (a narrow phone cut long labels off)
    const width = this.label.parentElement ? this.label.parentElement.clientWidth : 0;
    const half = this.label.offsetWidth / 2;
    let x = ((v.x + 1) / 2) * width;
    if (width > 2 * half + 8) x = Math.min(Math.max(x, half + 4), width - half - 4);
    this.label.style.left = width ? `${x}px` : `${((v.x + 1) / 2) * 100}%`;
    this.label.style.top = `${((1 - v.y) / 2) * 100}%`;
  }
}
