console.log("build")
