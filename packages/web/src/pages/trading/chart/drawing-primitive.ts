// The Ray drawing as a lightweight-charts series primitive: from the clicked bar at the clicked
// price, a horizontal line to the right edge of the pane (a level that starts at a moment, e.g.
// "resistance since the 10:15 high"). Horizontal lines need no primitive: they are price lines.
import type { ISeriesPrimitive, IPrimitivePaneRenderer, IPrimitivePaneView, SeriesAttachedParameter, Time } from 'lightweight-charts';
import type { CanvasRenderingTarget2D } from 'fancy-canvas';

export interface RaySpec {
  /** Chart seconds (IST-shifted) of the bar the ray starts at. */
  readonly time: number;
  readonly price: number;
  readonly color: string;
}

class RayRenderer implements IPrimitivePaneRenderer {
  constructor(private readonly segments: ReadonlyArray<{ x: number; y: number; color: string }>) {}

  draw(target: CanvasRenderingTarget2D): void {
    target.useMediaCoordinateSpace(({ context, mediaSize }) => {
      for (const { x, y, color } of this.segments) {
        context.strokeStyle = color;
        context.lineWidth = 2;
        context.beginPath();
        context.moveTo(Math.max(0, x), y);
        context.lineTo(mediaSize.width, y);
        context.stroke();
        context.fillStyle = color;
        context.beginPath();
        context.arc(x, y, 3, 0, Math.PI * 2);
        context.fill();
      }
    });
  }
}

/** Every ray of one series, redrawn on each viewport change. */
export class RaysPrimitive implements ISeriesPrimitive<Time> {
  private rays: readonly RaySpec[] = [];
  private host: SeriesAttachedParameter<Time> | undefined;
  private views: readonly IPrimitivePaneView[] = [];

  attached(parameter: SeriesAttachedParameter<Time>): void {
    this.host = parameter;
  }

  detached(): void {
    this.host = undefined;
  }

  setRays(rays: readonly RaySpec[]): void {
    this.rays = rays;
    this.host?.requestUpdate();
  }

  updateAllViews(): void {
    const parameter = this.host;
    if (parameter === undefined) {
      this.views = [];
      return;
    }
    const timeScale = parameter.chart.timeScale();
    const segments: Array<{ x: number; y: number; color: string }> = [];
    for (const ray of this.rays) {
      const x = timeScale.timeToCoordinate(ray.time as Time);
      const y = parameter.series.priceToCoordinate(ray.price);
      if (x !== null && y !== null) segments.push({ x, y, color: ray.color });
    }
    const renderer = new RayRenderer(segments);
    this.views = [{ renderer: () => renderer }];
  }

  paneViews(): readonly IPrimitivePaneView[] {
    return this.views;
  }
}
