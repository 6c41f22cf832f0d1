package dev.clrscope.cli.commands.gc;

import dev.clrscope.cli.output.OutputFile;
import dev.clrscope.monitor.gc.GcRecord;
import dev.clrscope.monitor.gc.GenerationSizes;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Rectangle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.StandardXYBarPainter;
import org.jfree.chart.renderer.xy.XYBarRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;

/**
 * Draws a GC watch: the heap's size per generation after each GC (top) and each GC's pause
 * (bottom), over seconds since the first GC, as SVG or PNG.
 */
public final class GcChart {
  private static final int WIDTH = 1200;
  private static final int HEIGHT = 800;
  private static final double MIB = 1024.0 * 1024.0;

  private GcChart() {}

  /** One point per GC: kept small, since a long watch may see many GCs. */
  private record Point(long number, long startNanos, GenerationSizes after, Double pauseMillis) {}

  /** The points to draw, collected as GCs complete. */
  public static final class Series {
    private final List<Point> points = new ArrayList<>();

    /** Adds a GC. */
    public synchronized void add(GcRecord r) {
      points.add(new Point(r.number(), r.startNanos(), r.sizeAfter(), r.pauseMillis()));
    }

    synchronized List<Point> points() {
      return List.copyOf(points);
    }

    /** The number of GCs added. */
    public synchronized int size() {
      return points.size();
    }
  }

  /** Writes the chart; the format follows the file's extension (.svg or .png). */
  public static void write(Path file, Series series, String title) {
    // A chart needs no display: AWT must not look for one (there is none on servers).
    System.setProperty("java.awt.headless", "true");
    JFreeChart chart = chart(series.points(), title);
    boolean png = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".png");
    OutputFile.write(
        file,
        out -> {
          if (png) {
            ChartUtils.writeChartAsPNG(out, chart, WIDTH, HEIGHT);
          } else {
            SVGGraphics2D g = new SVGGraphics2D(WIDTH, HEIGHT);
            chart.draw(g, new Rectangle(0, 0, WIDTH, HEIGHT));
            out.write(g.getSVGDocument().getBytes(StandardCharsets.UTF_8));
          }
          return null;
        });
  }

  static JFreeChart chart(List<Point> points, String title) {
    long origin = points.isEmpty() ? 0 : points.get(0).startNanos();
    String[] names = {"gen0", "gen1", "gen2", "LOH", "POH"};
    XYSeriesCollection sizes = new XYSeriesCollection();
    XYSeries[] gens = new XYSeries[names.length];
    for (int g = 0; g < names.length; g++) {
      gens[g] = new XYSeries(names[g], false, true);
      sizes.addSeries(gens[g]);
    }
    XYSeries total = new XYSeries("total", false, true);
    sizes.addSeries(total);
    XYSeries pauses = new XYSeries("pause", false, true);
    for (Point p : points) {
      double t = (p.startNanos() - origin) / 1e9;
      if (p.after() != null) {
        for (int g = 0; g < names.length; g++) {
          gens[g].add(t, p.after().get(g) / MIB);
        }
        total.add(t, p.after().total() / MIB);
      }
      if (p.pauseMillis() != null) {
        pauses.add(t, p.pauseMillis());
      }
    }
    NumberAxis time = new NumberAxis("seconds since the first GC");
    XYLineAndShapeRenderer lines = new XYLineAndShapeRenderer(true, true);
    for (int i = 0; i <= names.length; i++) {
      lines.setSeriesStroke(i, new BasicStroke(1.5f));
    }
    XYPlot heap = new XYPlot(sizes, null, new NumberAxis("heap after GC (MiB)"), lines);
    XYBarRenderer bars = new XYBarRenderer();
    bars.setBarPainter(new StandardXYBarPainter());
    bars.setShadowVisible(false);
    bars.setSeriesPaint(0, new Color(0xC0392B));
    // Bars a fixed share of the span wide, so single GCs stay visible on long watches.
    bars.setUseYInterval(false);
    XYSeriesCollection pauseData = new XYSeriesCollection(pauses);
    double span =
        points.size() < 2
            ? 1
            : Math.max(1e-3, (points.get(points.size() - 1).startNanos() - origin) / 1e9);
    pauseData.setIntervalWidth(span / 400);
    XYPlot pause = new XYPlot(pauseData, null, new NumberAxis("pause (ms)"), bars);
    CombinedDomainXYPlot plot = new CombinedDomainXYPlot(time);
    plot.add(heap, 3);
    plot.add(pause, 2);
    plot.setGap(12);
    JFreeChart chart = new JFreeChart("GCs of " + title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
    chart.setBackgroundPaint(Color.WHITE);
    return chart;
  }
}
