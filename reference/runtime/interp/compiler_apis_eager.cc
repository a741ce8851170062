// The library APIs beyond the op table, each family in its own file.
#include "reference/runtime/interp/library.h"

namespace tdc::runtime {

void InstallCompilerApisEager(Interpreter& in) {
  InstallStdlibModules(in);
  InstallTorchNamespaces(in);
  InstallCompileApi(in);
  InstallDisableApis(in);
  InstallRegistryApis(in);
  InstallMarkerApis(in);
  InstallGradModeApis(in);  // before the stance APIs: the order objects are made in is kept
  InstallStanceApis(in);
  InstallLibraryApis(in);
  InstallDynamoModules(in);
}

}  // namespace tdc::runtime
