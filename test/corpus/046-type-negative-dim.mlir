func.func @f(%x: tensor<-1xf32>) -> tensor<-1xf32> {
  %0 = "dit.relu"(%x) : (tensor<-1xf32>) -> tensor<-1xf32>
  return %0 : tensor<-1xf32>
}
