import java.beans.PropertyDescriptor;
import java.io.File;
import javax.swing.DefaultListModel;
import weka.classifiers.Classifier;
import weka.experiment.*;

/** A Weka experiment as the Experimenter runs one: several classifiers (a property
 *  iteration) over several data sets, one ARFF result file, in either of its designs:
 *  cv (runs x n-fold cross-validation) or split (runs of one random train/test split with
 *  n percent for training, the Experimenter's default).
 *  args: cv|split n runs out.arff dataset.arff... */
public class RunExp {
  public static void main(String[] args) throws Exception {
    boolean split = args[0].equals("split");
    int runs = Integer.parseInt(args[2]);
    Experiment exp = new Experiment();
    exp.setRunLower(1);
    exp.setRunUpper(runs);
    ClassifierSplitEvaluator se = new ClassifierSplitEvaluator();
    se.setClassifier(new weka.classifiers.rules.ZeroR());
    ResultProducer producer;
    Class<?> producerClass;
    if (split) {
      RandomSplitResultProducer rs = new RandomSplitResultProducer();
      rs.setTrainPercent(Double.parseDouble(args[1]));
      rs.setRandomizeData(true);
      rs.setSplitEvaluator(se);
      producer = rs;
      producerClass = RandomSplitResultProducer.class;
    } else {
      CrossValidationResultProducer cv = new CrossValidationResultProducer();
      cv.setNumFolds(Integer.parseInt(args[1]));
      cv.setSplitEvaluator(se);
      producer = cv;
      producerClass = CrossValidationResultProducer.class;
    }
    PropertyNode[] path = new PropertyNode[2];
    path[0] = new PropertyNode(se, new PropertyDescriptor("splitEvaluator", producerClass),
        producerClass);
    path[1] = new PropertyNode(se.getClassifier(), new PropertyDescriptor("classifier",
        se.getClass()), se.getClass());
    exp.setResultProducer(producer);
    exp.setPropertyPath(path);
    exp.setUsePropertyIterator(true);
    exp.setPropertyArray(new Classifier[] {new weka.classifiers.rules.ZeroR(),
        new weka.classifiers.trees.J48(), new weka.classifiers.bayes.NaiveBayes()});
    DefaultListModel model = new DefaultListModel();
    for (int i = 4; i < args.length; i++) model.addElement(new File(args[i]));
    exp.setDatasets(model);
    InstancesResultListener irl = new InstancesResultListener();
    irl.setOutputFile(new File(args[3]));
    exp.setResultListener(irl);
    exp.initialize();
    exp.runExperiment();
    exp.postProcess();
  }
}
