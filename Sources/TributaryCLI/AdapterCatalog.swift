import CommandAdapter
import DeclarativeAdapters
import FeedAdapters
import KanzhihuAdapter
import QdailyAdapter
import ToutiaoAdapter
public import TributaryCore

/// Every adapter compiled into this `tributary`. The only place that names them all: adding an
/// adapter means adding one line here.
public enum AdapterCatalog {
    /// The registry the commands use.
    public static let registry = AdapterRegistry([
        CommandAdapter.self,
        JSONAdapter.self,
        JSONFeedAdapter.self,
        FeedAdapter.self,
        HTMLAdapter.self,
        KanzhihuAdapter.self,
        QdailyAdapter.self,
        ToutiaoAdapter.self,
    ])
}
