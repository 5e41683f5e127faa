import java.beans.PropertyDescriptor;
import java.io.File;
import javax.swing.DefaultListModel;
import weka.classifiers.Classifier;
import weka.experiment.*;

/** A Weka experiment of the Experimenter's default design: several classifiers (a property
 *  iteration) over several data sets, each run one random train/test split
 *  (RandomSplitResultProducer, randomized, the given percentage for training), one ARFF file.
 *  args: percent runs out.arff dataset.arff... */
public class RunSplit {
  public static void main(String[] args) throws Exception {
    double percent = Double.parseDouble(args[0]);
    int runs = Integer.parseInt(args[1]);
    Experiment exp = new Experiment();
    exp.setRunLower(1);
    exp.setRunUpper(runs);
    RandomSplitResultProducer split = new RandomSplitResultProducer();
    split.setTrainPercent(percent);
    split.setRandomizeData(true);
    ClassifierSplitEvaluator se = new ClassifierSplitEvaluator();
    se.setClassifier(new weka.classifiers.rules.ZeroR());
    split.setSplitEvaluator(se);
    PropertyNode[] path = new PropertyNode[2];
    path[0] = new PropertyNode(se, new PropertyDescriptor("splitEvaluator",
        RandomSplitResultProducer.class), RandomSplitResultProducer.class);
    path[1] = new PropertyNode(se.getClassifier(), new PropertyDescriptor("classifier",
        se.getClass()), se.getClass());
    exp.setResultProducer(split);
    exp.setPropertyPath(path);
    exp.setUsePropertyIterator(true);
    exp.setPropertyArray(new Classifier[] {new weka.classifiers.rules.ZeroR(),
        new weka.classifiers.trees.J48(), new weka.classifiers.bayes.NaiveBayes()});
    DefaultListModel model = new DefaultListModel();
    for (int i = 3; i < args.length; i++) model.addElement(new File(args[i]));
    exp.setDatasets(model);
    InstancesResultListener irl = new InstancesResultListener();
    irl.setOutputFile(new File(args[2]));
    exp.setResultListener(irl);
    exp.initialize();
    exp.runExperiment();
    exp.postProcess();
  }
}
