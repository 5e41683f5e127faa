import java.io.FileReader;
import weka.core.Instances;
import weka.core.Range;
import weka.experiment.PairedCorrectedTTester;
import weka.experiment.PairedStats;

/** Weka's corrected resampled t-test of every result set against every other on every data
 *  set, as JSON lines (either design: cross-validation or random split).
 *  args: results.arff comparisonColumn(1-based) */
public class TTest {
  public static void main(String[] args) throws Exception {
    Instances data = new Instances(new FileReader(args[0]));
    PairedCorrectedTTester t = new PairedCorrectedTTester();
    t.setInstances(data);
    t.setDatasetKeyColumns(new Range("1"));
    // by name, so that both designs read: cross-validation (Key_Run, Key_Fold) and the
    // random split (Key_Run only; WEKA's tester takes fold column -1 then)
    t.setRunColumn(data.attribute("Key_Run").index());
    t.setFoldColumn(data.attribute("Key_Fold") == null ? -1 : data.attribute("Key_Fold").index());
    int scheme = data.attribute("Key_Scheme").index() + 1;
    t.setResultsetKeyColumns(new Range(scheme + "," + (scheme + 1) + "," + (scheme + 2)));
    t.setSignificanceLevel(0.05);
    int col = Integer.parseInt(args[1]) - 1;
    java.util.List<weka.core.Instance> specs = new java.util.ArrayList<>();
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (int i = 0; i < data.numInstances(); i++) {
      if (seen.add(data.instance(i).stringValue(0))) specs.add(data.instance(i));
    }
    for (int d = 0; d < specs.size(); d++) {
      for (int a = 0; a < t.getNumResultsets(); a++) {
        for (int b = 0; b < t.getNumResultsets(); b++) {
          if (a == b) continue;
          PairedStats s = t.calculateStatistics(specs.get(d), a, b, col);
          System.out.println("{\"dataset\": \"" + specs.get(d).stringValue(0) + "\"" + ", \"a\": " + a + ", \"b\": " + b
              + ", \"count\": " + s.count
              + ", \"x_mean\": " + s.xStats.mean + ", \"x_sd\": " + s.xStats.stdDev
              + ", \"y_mean\": " + s.yStats.mean + ", \"y_sd\": " + s.yStats.stdDev
              + ", \"diff_mean\": " + s.differencesStats.mean
              + ", \"diff_sd\": " + s.differencesStats.stdDev
              + ", \"p\": " + s.differencesProbability
              + ", \"significance\": " + s.differencesSignificance + "}");
        }
      }
    }
  }
}
